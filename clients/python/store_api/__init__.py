"""A client for the Store API (standard library only).

    from store_api import StoreApi

    store = StoreApi("https://store.example.com", api_key="sk_...")
    for product in store.products.iterate(category="bags-backpacks"):
        print(product["name"], product["price"])
"""

from ._http import NOT_GIVEN, NotGiven, RetryEvent, __version__, backoff_delay, encode_query
from ._version import STORE_VERSION
from .client import StoreApi
from .errors import (
    AuthenticationError,
    AuthorizationError,
    ConflictError,
    ErrorDetail,
    InternalError,
    InvalidRequestError,
    NotFoundError,
    RateLimitedError,
    StoreApiConnectionError,
    StoreApiError,
    ValidationError,
)
from .events import STORE_EVENT_TYPES, StoreEvent, WebhookHandler, WebhookVerificationError, construct_event, is_newer_event
from .pagination import Page
from .webhooks import WebhookVerification, inspect_webhook, verify_standard_webhook, verify_store_signature, verify_webhook

__all__ = [
    "NOT_GIVEN",
    "AuthenticationError",
    "AuthorizationError",
    "ConflictError",
    "ErrorDetail",
    "InternalError",
    "InvalidRequestError",
    "NotFoundError",
    "NotGiven",
    "Page",
    "RateLimitedError",
    "RetryEvent",
    "StoreApi",
    "STORE_EVENT_TYPES",
    "STORE_VERSION",
    "StoreApiConnectionError",
    "StoreApiError",
    "StoreEvent",
    "ValidationError",
    "WebhookHandler",
    "WebhookVerification",
    "WebhookVerificationError",
    "__version__",
    "backoff_delay",
    "construct_event",
    "is_newer_event",
    "encode_query",
    "inspect_webhook",
    "verify_standard_webhook",
    "verify_store_signature",
    "verify_webhook",
]
