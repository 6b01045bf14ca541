"""Re-exports, as engines do for backwards compatibility."""
from tiny_engine.platform_utils import *  # noqa: F401,F403
