"""The client: ``StoreApi(base_url, api_key=...)`` with the API's resource groups as attributes."""

from __future__ import annotations

import copy
from typing import Any, Callable, Mapping, Optional

from ._http import NOT_GIVEN, HttpClient, Response, RetryEvent
from ._resources import StoreApiResources
from ._version import STORE_VERSION

__all__ = ["StoreApi"]


class StoreApi(StoreApiResources):
    """A client for the Store API.

    Args:
        base_url: where the Worker answers, e.g. ``"https://store.example.com"`` (without ``/api``).
        api_key: an API key (``sk_...``), sent as ``Authorization: Bearer``. For servers only.
        token: a user token (a JWT from ``auth.login``/``auth.register``); wins over ``api_key``
            and ``publishable_key``.
        cart_token: a guest cart's ``X-Cart-Token``, sent on the cart operations that take it.
        publishable_key: a publishable key (``pk_...``): a shopper's abilities only (catalogue,
            carts, checkout, sign-up and sign-in). Sent while no token or ``api_key`` is set, so a
            shopper's sign-in (``set_token``) replaces it and signing out (``set_token(None)``)
            goes back to it.
        buyer_ip: sent as ``X-Buyer-IP`` on every request: the address of the shopper a
            server-rendered storefront is answering, so the request is counted on that shopper
            instead of the key. Needs an ``api_key`` holding ``storefront:buyer-ip`` (403
            otherwise; 400 for a value that is not an IPv4 or IPv6 address). Server-side only,
            never in code a browser runs. Per request: ``store.with_options(buyer_ip=...)``.
        store_version: the API version to be answered in, sent as ``Store-Version`` on every request
            (docs/versioning.md). By default ``STORE_VERSION``, the version this client was generated
            for, whose shapes its types describe, whatever the key is pinned to or the store
            defaults to.
        max_retries: how many times one request is retried (429 always; 5xx and network errors only
            for GET, HEAD, DELETE and requests with an Idempotency-Key). 3 by default; 0 turns retries off.
        max_retry_wait: the longest ``Retry-After`` (seconds) the client waits for; a longer one
            raises RateLimitedError at once. Also caps the backoff steps.
        timeout: seconds to wait for an answer (per attempt).
        user_agent: the ``User-Agent`` header.
        on_retry: called with a :class:`RetryEvent` before each retry (for logging or metrics).

    Operations are grouped as the API's resources: ``store.products.list(category="bags-backpacks")``,
    ``store.products.variants.create(product_id, price=9.5)``, ``store.orders.cancel(order_id, reason="...")``.
    """

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str] = None,
        token: Optional[str] = None,
        *,
        cart_token: Optional[str] = None,
        publishable_key: Optional[str] = None,
        buyer_ip: Optional[str] = None,
        store_version: Optional[str] = None,
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
            publishable_key=publishable_key,
            buyer_ip=buyer_ip,
            store_version=store_version,
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
        http = self._http
        credential = "token" if http.token else "api_key" if http.api_key else "publishable_key" if http.publishable_key else "anonymous"
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
    def store_version(self) -> str:
        """The API version this client asks to be answered in (``Store-Version``): its
        ``store_version``, else ``STORE_VERSION``."""
        return self._http.store_version

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

    def set_publishable_key(self, publishable_key: Optional[str]) -> None:
        """Sends this publishable key (``pk_...``) while no token or API key is set; None to stop."""
        self._http.publishable_key = publishable_key

    def set_buyer_ip(self, buyer_ip: Optional[str]) -> None:
        """Sends this shopper's address as ``X-Buyer-IP`` from now on; None to stop. A client shared
        by concurrent requests should use ``with_options(buyer_ip=...)`` per request instead."""
        self._http.buyer_ip = buyer_ip

    _OPTIONS = frozenset(
        {"api_key", "token", "cart_token", "publishable_key", "buyer_ip", "store_version", "max_retries", "max_retry_wait", "timeout"}
    )

    def with_options(self, **options: Any) -> "StoreApi":
        """A new client with this one's settings and credentials, changed by ``options``
        (``api_key``, ``token``, ``cart_token``, ``publishable_key``, ``buyer_ip``, ``store_version``,
        ``max_retries``, ``max_retry_wait``, ``timeout``); this one is left as it is. Cheap: for one
        shopper's request in a server-rendered storefront,
        ``store.with_options(buyer_ip=shopper_ip).products.list()``."""
        unknown = set(options) - self._OPTIONS
        if unknown:
            raise TypeError(f"with_options() got unknown options: {', '.join(sorted(unknown))}")
        http = copy.copy(self._http)
        for name, value in options.items():
            setattr(http, name, STORE_VERSION if name == "store_version" and value is None else value)
        http.retry_count = 0
        http.last_response = None
        clone = StoreApi.__new__(StoreApi)
        StoreApiResources.__init__(clone, http)
        return clone

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = NOT_GIVEN,
        headers: Optional[Mapping[str, str]] = None,
        idempotency_key: Optional[str] = None,
        buyer_ip: Optional[str] = None,
    ) -> Any:
        """Any request, with the client's credential, retries and errors: returns the decoded JSON
        (the whole envelope), or None for an empty answer. ``path`` starts with ``/api/``;
        ``buyer_ip`` is this request's ``X-Buyer-IP`` (default: the client's)."""
        return self._http.request(
            method, path, query=query, body=body, headers=headers, idempotency_key=idempotency_key, buyer_ip=buyer_ip
        ).body
