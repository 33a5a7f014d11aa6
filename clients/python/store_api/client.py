"""The client: ``StoreApi(base_url, api_key=...)`` with the API's resource groups as attributes."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional

from ._http import NOT_GIVEN, HttpClient, Response, RetryEvent
from ._resources import StoreApiResources

__all__ = ["StoreApi"]


class StoreApi(StoreApiResources):
    """A client for the Store API.

    Args:
        base_url: where the Worker answers, e.g. ``"https://store.example.com"`` (without ``/api``).
        api_key: an API key (``sk_...``), sent as ``Authorization: Bearer``.
        token: a user token (a JWT from ``auth.login``/``auth.register``); wins over ``api_key``.
        cart_token: a guest cart's ``X-Cart-Token``, sent on the cart operations that take it.
        max_retries: how many times one request is retried (429 always; 5xx and network errors only
            for GET, HEAD, DELETE and requests with an Idempotency-Key). 3 by default; 0 turns retries off.
        max_retry_wait: the longest ``Retry-After`` (seconds) the client waits for; a longer one
            raises RateLimitedError at once. Also caps the backoff steps.
        timeout: seconds to wait for an answer (per attempt).
        user_agent: the ``User-Agent`` header.
        on_retry: called with a :class:`RetryEvent` before each retry (for logging or metrics).

    Operations are grouped as the API's resources: ``store.products.list(category="bags")``,
    ``store.products.variants.create(product_id, price=9.5)``, ``store.orders.cancel(order_id, reason="...")``.
    """

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str] = None,
        token: Optional[str] = None,
        *,
        cart_token: Optional[str] = None,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        timeout: float = 30.0,
        user_agent: Optional[str] = None,
        on_retry: Optional[Callable[[RetryEvent], None]] = None,
    ) -> None:
        http = HttpClient(
            base_url,
            api_key=api_key,
            token=token,
            cart_token=cart_token,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
            timeout=timeout,
            user_agent=user_agent,
            on_retry=on_retry,
        )
        super().__init__(http)

    @property
    def http(self) -> HttpClient:
        """The HTTP layer (its settings can be changed: ``store.http.max_retries = 5``)."""
        return self._http

    def __repr__(self) -> str:
        credential = "token" if self._http.token else "api_key" if self._http.api_key else "anonymous"
        return f"StoreApi({self._http.base_url!r}, {credential})"

    @property
    def last_response(self) -> Optional[Response]:
        """The last successful answer: ``status``, ``headers`` (lower-case names), ``body`` and
        ``request_id``; e.g. ``store.last_response.headers.get("idempotent-replayed")``."""
        return self._http.last_response

    @property
    def base_url(self) -> str:
        return self._http.base_url

    @property
    def retry_count(self) -> int:
        """How many retries this client has made, over all its requests."""
        return self._http.retry_count

    def set_token(self, token: Optional[str]) -> None:
        """Sends this user token (from ``auth.login``/``auth.register``) from now on; None to stop."""
        self._http.token = token

    def set_api_key(self, api_key: Optional[str]) -> None:
        """Sends this API key from now on (a token set with set_token wins over it)."""
        self._http.api_key = api_key

    def set_cart_token(self, cart_token: Optional[str]) -> None:
        """Sends this guest cart token as ``X-Cart-Token`` on the cart operations from now on."""
        self._http.cart_token = cart_token

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = NOT_GIVEN,
        headers: Optional[Mapping[str, str]] = None,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        """Any request, with the client's credential, retries and errors: returns the decoded JSON
        (the whole envelope), or None for an empty answer. ``path`` starts with ``/api/``."""
        return self._http.request(
            method, path, query=query, body=body, headers=headers, idempotency_key=idempotency_key
        ).body
