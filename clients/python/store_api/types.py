"""The API's JSON shapes as TypedDicts (``from store_api.types import Product``)."""

from ._types import *  # noqa: F401,F403
from ._types import __all__  # noqa: F401
