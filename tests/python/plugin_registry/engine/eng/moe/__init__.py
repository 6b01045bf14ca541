# A re-export of the registration API is not a registration.
from eng.moe.runner import MoeRunner, register_custom

__all__ = ["MoeRunner", "register_custom"]
