"""The HTTP layer: one request with retries, the envelope unwrapped, errors raised.

Standard library only (urllib.request). Retries:

- 429 (RATE_LIMITED), any method: after ``Retry-After`` seconds (plus a little jitter), or an
  exponential backoff with full jitter when the answer has none. A ``Retry-After`` longer than
  ``max_retry_wait`` is not waited for: the RateLimitedError is raised at once.
- 5xx answers and network errors (no answer, a timeout): only for requests that are safe to send
  again, GET, HEAD and DELETE, and requests carrying an ``Idempotency-Key`` (the API returns the
  first answer for a repeated key), with exponential backoff and full jitter.
- At most ``max_retries`` retries (3 by default); then the last error is raised.
"""

from __future__ import annotations

import http.client
import json
import platform
import random
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from ._version import STORE_VERSION
from .errors import StoreApiConnectionError, StoreApiError, error_from_response, parse_retry_after
from .pagination import Page

__version__ = "0.1.0"

#: Methods sent again after a 5xx or a network error even without an Idempotency-Key.
SAFE_METHODS = frozenset({"GET", "HEAD", "DELETE", "OPTIONS"})
#: The first backoff step in seconds: retry n (from 0) waits uniform(0, min(cap, BASE * 2**n)).
BACKOFF_BASE = 0.5
#: The longest backoff step in seconds (before jitter).
BACKOFF_CAP = 8.0


class NotGiven:
    """The default of optional body fields: the field is left out of the JSON (``None`` sends null)."""

    _instance: Optional["NotGiven"] = None

    def __new__(cls) -> "NotGiven":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()


@dataclass(frozen=True)
class RetryEvent:
    """What the ``on_retry`` hook is told before the client sleeps and sends a request again."""

    #: 1 for the first retry of this request, 2 for the second, ...
    attempt: int
    #: Seconds the client will sleep before retrying.
    delay: float
    #: ``"rate_limited"`` (429), ``"server_error"`` (5xx) or ``"network_error"``.
    reason: str
    method: str
    url: str
    #: The answer's status, ``None`` for a network error.
    status: Optional[int] = None
    #: The error the attempt ended with.
    error: Optional[BaseException] = None


def backoff_delay(retry: int, *, base: float = BACKOFF_BASE, cap: float = BACKOFF_CAP, rand: Callable[[], float] = random.random) -> float:
    """Exponential backoff with full jitter: uniform in ``[0, min(cap, base * 2**retry)]``, ``retry`` from 0."""
    ceiling = min(cap, base * (2 ** max(0, retry)))
    return rand() * ceiling


def _format_scalar(value: Any) -> str:
    if isinstance(value, bool):  # before int: bool is an int
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def encode_query(params: Optional[Mapping[str, Any]]) -> str:
    """The query string (without ``?``): ``None`` values left out, booleans as ``true``/``false``,
    whole floats without ``.0``, lists and tuples comma-separated (``fields=["id", "name"]``)."""
    if not params:
        return ""
    pairs = []
    for name, value in params.items():
        if value is None or value is NOT_GIVEN:
            continue
        if isinstance(value, (list, tuple)):
            text = ",".join(_format_scalar(v) for v in value)
        else:
            text = _format_scalar(value)
        pairs.append((name, text))
    return urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote, safe=",:()")


def expand_path(path: str, params: Optional[Mapping[str, Any]]) -> str:
    """``/api/orders/{id}/cancel`` with ``{"id": "ord 1"}`` -> ``/api/orders/ord%201/cancel``."""
    for name, value in (params or {}).items():
        if value is None or value == "":
            raise ValueError(f"path parameter {name!r} must not be empty")
        path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
    return path


@dataclass
class Response:
    """One answer: its status, headers (lower-case names) and decoded JSON body (``None`` if empty)."""

    status: int
    headers: Dict[str, str]
    body: Any

    @property
    def request_id(self) -> Optional[str]:
        return self.headers.get("x-request-id")


def _decode(raw: bytes) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8", "replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


class HttpClient:
    """Sends requests for StoreApi. Not meant to be used directly; see ``StoreApi.request``."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: Optional[str] = None,
        token: Optional[str] = None,
        cart_token: Optional[str] = None,
        publishable_key: Optional[str] = None,
        buyer_ip: Optional[str] = None,
        store_version: Optional[str] = None,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        timeout: float = 30.0,
        user_agent: Optional[str] = None,
        on_retry: Optional[Callable[[RetryEvent], None]] = None,
        sleep: Callable[[float], None] = time.sleep,
        rand: Callable[[], float] = random.random,
    ) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http(s) URL, not {base_url!r}")
        base = base_url.rstrip("/")
        # The document's paths start with /api; a base given with it would double it.
        if base.endswith("/api"):
            base = base[: -len("/api")]
        self.base_url = base
        self.api_key = api_key
        self.token = token
        self.cart_token = cart_token
        self.publishable_key = publishable_key
        #: Sent as X-Buyer-IP on every request (a request's buyer_ip wins over it).
        self.buyer_ip = buyer_ip
        #: Sent as Store-Version on every request (a Store-Version in a request's headers wins over it).
        self.store_version = store_version or STORE_VERSION
        #: The newest X-D1-Bookmark the API answered with (see _keep_bookmark).
        self.bookmark: Optional[str] = None
        self.max_retries = max(0, int(max_retries))
        self.max_retry_wait = float(max_retry_wait)
        self.timeout = timeout
        self.user_agent = user_agent or f"store-api-python/{__version__} Python/{platform.python_version()}"
        self.on_retry = on_retry
        self.sleep = sleep
        self.rand = rand
        #: Retries made so far by this client, over all requests.
        self.retry_count = 0
        #: The last 2xx/3xx answer (status, headers, body): its headers say, for instance,
        #: ``idempotent-replayed`` or ``x-ratelimit-remaining``.
        self.last_response: Optional[Response] = None
        self._opener = urllib.request.build_opener()

    # -- one attempt ---------------------------------------------------------------------------

    def _send(self, method: str, url: str, headers: Mapping[str, str], data: Optional[bytes]) -> Tuple[int, Dict[str, str], bytes]:
        request = urllib.request.Request(url, data=data, headers=dict(headers), method=method)
        try:
            with self._opener.open(request, timeout=self.timeout) as answer:
                return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
        except urllib.error.HTTPError as answer:
            try:
                raw = answer.read()
            finally:
                answer.close()
            return answer.code, {k.lower(): v for k, v in (answer.headers or {}).items()}, raw

    def _keep_bookmark(self, bookmark: Optional[str]) -> None:
        """Keeps the newest X-D1-Bookmark (they sort as they advance), sent on every later request:
        reads then see at least what this client wrote, even from a database replica."""
        if bookmark and (self.bookmark is None or bookmark > self.bookmark):
            self.bookmark = bookmark

    # -- a request with its retries ---------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        path_params: Optional[Mapping[str, Any]] = None,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = NOT_GIVEN,
        content: Optional[bytes] = None,
        headers: Optional[Mapping[str, Optional[str]]] = None,
        idempotent: bool = False,
        idempotency_key: Optional[str] = None,
        cart_token: Optional[str] = None,
        send_cart_token: bool = False,
        buyer_ip: Optional[str] = None,
    ) -> Response:
        """Sends a request, retrying as the module's docstring says; returns the 2xx answer or raises."""
        method = method.upper()
        url = self.base_url + expand_path(path, path_params)
        qs = encode_query(query)
        if qs:
            url += "?" + qs
        sent: Dict[str, str] = {"Accept": "application/json", "User-Agent": self.user_agent}
        # The signed-in user's token, then the secret key, then the publishable key.
        credential = self.token or self.api_key or self.publishable_key
        if credential:
            sent["Authorization"] = f"Bearer {credential}"
        shopper = buyer_ip or self.buyer_ip
        if shopper:
            sent["X-Buyer-IP"] = shopper
        if send_cart_token or cart_token is not None:
            token = cart_token if cart_token is not None else self.cart_token
            if token:
                sent["X-Cart-Token"] = token
        if idempotent or idempotency_key is not None:
            sent["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        if self.bookmark:
            sent["X-D1-Bookmark"] = self.bookmark
        for name, value in (headers or {}).items():
            if value is not None:
                sent[name] = value
        # Unless a header names one (in any case: urllib would send both names).
        if self.store_version and not any(name.lower() == "store-version" for name in sent):
            sent["Store-Version"] = self.store_version
        data = None
        if body is not NOT_GIVEN:
            data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            sent["Content-Type"] = "application/json"
        elif content is not None:
            # A file (an image upload): its bytes as they are; the server reads their type from them.
            data = bytes(content)
            sent["Content-Type"] = "application/octet-stream"
        replayable = method in SAFE_METHODS or any(k.lower() == "idempotency-key" for k in sent)

        retry = 0
        while True:
            try:
                status, answer_headers, raw = self._send(method, url, sent, data)
                self._keep_bookmark(answer_headers.get("x-d1-bookmark"))
            except (OSError, http.client.HTTPException) as exc:
                failure = StoreApiConnectionError(f"{method} {url} failed: {exc}", cause=exc)
                if replayable and retry < self.max_retries:
                    delay = backoff_delay(retry, cap=min(BACKOFF_CAP, self.max_retry_wait), rand=self.rand)
                    self._before_retry(retry, delay, "network_error", method, url, None, failure)
                    retry += 1
                    continue
                raise failure from exc
            if status < 400:
                self.last_response = Response(status, answer_headers, _decode(raw))
                return self.last_response
            error = error_from_response(status, answer_headers, raw)
            if retry < self.max_retries:
                wait = self._retry_delay(retry, status, answer_headers, replayable)
                if wait is not None:
                    self._before_retry(retry, wait, "rate_limited" if status == 429 else "server_error", method, url, status, error)
                    retry += 1
                    continue
            raise error

    def _retry_delay(self, retry: int, status: int, headers: Mapping[str, str], replayable: bool) -> Optional[float]:
        """Seconds to wait before retrying this answer, or None when it is not retried."""
        if status != 429 and not (status >= 500 and replayable):
            return None
        retry_after = parse_retry_after(headers.get("retry-after"))
        if retry_after is not None:
            if retry_after > self.max_retry_wait:
                return None
            # A little jitter after the wait, so clients told the same second do not all come back at once.
            return retry_after + self.rand() * min(BACKOFF_BASE, max(0.0, self.max_retry_wait - retry_after))
        return backoff_delay(retry, cap=min(BACKOFF_CAP, self.max_retry_wait), rand=self.rand)

    def _before_retry(self, retry: int, delay: float, reason: str, method: str, url: str, status: Optional[int], error: StoreApiError) -> None:
        self.retry_count += 1
        if self.on_retry is not None:
            self.on_retry(RetryEvent(attempt=retry + 1, delay=delay, reason=reason, method=method, url=url, status=status, error=error))
        if delay > 0:
            self.sleep(delay)

    # -- what the generated resources call ------------------------------------------------------

    def call(self, method: str, path: str, *, kind: str = "item", **options: Any) -> Any:
        """A request whose answer is unwrapped: ``kind`` ``"item"`` returns the envelope's ``data``,
        ``"list"`` a :class:`Page`, ``"none"`` None and ``"raw"`` the whole decoded body."""
        answer = self.request(method, path, **options)
        body = answer.body
        if kind == "none":
            return None
        if kind == "raw" or not isinstance(body, dict):
            return body
        if kind == "list":
            query = dict(options.get("query") or {})

            def fetch(page: int) -> Page[Any]:
                return self.call(method, path, kind="list", **{**options, "query": {**query, "page": page}})

            return Page(body.get("data") or [], body.get("pagination") or {}, fetch=fetch, message=body.get("message"), facets=body.get("facets"))
        return body.get("data")


class ResourceBase:
    """The base of the generated resource groups: they share the client's HttpClient."""

    def __init__(self, http: HttpClient) -> None:
        self._http = http


def compact_body(fields: Mapping[str, Any], optional: bool = False) -> Any:
    """The JSON body from a method's keyword arguments: NOT_GIVEN ones left out. For an optional
    body with nothing given, NOT_GIVEN (no body is sent)."""
    body = {key: value for key, value in fields.items() if value is not NOT_GIVEN}
    if optional and not body:
        return NOT_GIVEN
    return body
