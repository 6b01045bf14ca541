# Re-exported for backwards compatibility, as SGLang's srt/utils/__init__.py does.
from eng.utils.common import *  # noqa: F401,F403
