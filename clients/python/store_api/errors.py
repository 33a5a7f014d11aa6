"""The errors the client raises.

Every failure is a :class:`StoreApiError`. An answer from the API with an error envelope
(``{"success": false, "error": {"code", "message", "details"}}``) raises the subclass for its
``code``; a request that got no answer (refused connection, DNS failure, timeout) raises
:class:`StoreApiConnectionError`.
"""

from __future__ import annotations

import email.utils
import json
import math
import time
from typing import Any, Dict, List, Mapping, Optional, Type

from ._types import ErrorDetail

__all__ = [
    "ErrorDetail",
    "StoreApiError",
    "InvalidRequestError",
    "ValidationError",
    "AuthenticationError",
    "AuthorizationError",
    "NotFoundError",
    "ConflictError",
    "RateLimitedError",
    "InternalError",
    "StoreApiConnectionError",
    "error_from_response",
]


class StoreApiError(Exception):
    """An error answer from the Store API (or, for the subclass StoreApiConnectionError, none).

    Attributes:
        code: the API's error code (``"NOT_FOUND"``, ``"VALIDATION_ERROR"``, ...).
        status: the HTTP status (``404``), or ``None`` when no answer came.
        message: the API's message.
        details: one :class:`ErrorDetail` dict per invalid field, parameter or header:
            ``{"field": "price", "code": "too_small", "message": "price must be 0 or more"}``;
            ``code`` is a detail code (``required``, ``too_small``, ``not_found``, ...), ``message``
            starts with the field's name and ``field`` is absent when the problem is about no one
            field. Always a list, in every API version (2026-11-20's one object is read as a list of
            one): empty when the error is about no one field.
        request_id: the ``X-Request-Id`` of the answer: quote it when reporting a problem.
        headers: the answer's headers, lower-case names.
        body: the decoded JSON body (or the text, when it was not JSON).
    """

    code: str
    status: Optional[int]
    message: str
    details: List[ErrorDetail]
    request_id: Optional[str]

    def __init__(
        self,
        message: str,
        *,
        code: str = "UNKNOWN_ERROR",
        status: Optional[int] = None,
        details: Any = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.details = details_of(details)
        self.request_id = request_id
        self.headers: Dict[str, str] = dict(headers or {})
        self.body = body

    def __str__(self) -> str:
        where = f" ({self.status})" if self.status is not None else ""
        rid = f" [request id {self.request_id}]" if self.request_id else ""
        return f"{self.code}{where}: {self.message}{rid}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(code={self.code!r}, status={self.status!r}, "
            f"message={self.message!r}, request_id={self.request_id!r})"
        )


class InvalidRequestError(StoreApiError):
    """INVALID_REQUEST (400, also 413 and 415): a malformed request or a bad query parameter."""


class ValidationError(StoreApiError):
    """VALIDATION_ERROR (422): invalid fields; ``details`` lists every one."""


class AuthenticationError(StoreApiError):
    """AUTHENTICATION_ERROR (401): no credential where one is needed, or a bad one."""


class AuthorizationError(StoreApiError):
    """AUTHORIZATION_ERROR (403): the credential lacks a permission."""


class NotFoundError(StoreApiError):
    """NOT_FOUND (404): no such resource, or not yours."""


class ConflictError(StoreApiError):
    """CONFLICT (409): the state does not allow it; read again and retry."""


class RateLimitedError(StoreApiError):
    """RATE_LIMITED (429), raised once the retries are spent or ``Retry-After`` is over the
    client's ``max_retry_wait``. ``retry_after`` is the wait the server asked for, in seconds."""

    def __init__(self, message: str, *, retry_after: Optional[float] = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class InternalError(StoreApiError):
    """INTERNAL_ERROR (500 and other 5xx answers)."""


class StoreApiConnectionError(StoreApiError):
    """No answer: the connection failed or timed out. ``cause`` is the underlying exception."""

    def __init__(self, message: str, *, cause: Optional[BaseException] = None) -> None:
        super().__init__(message, code="CONNECTION_ERROR")
        self.cause = cause


ERRORS_BY_CODE: Dict[str, Type[StoreApiError]] = {
    "AUTHENTICATION_ERROR": AuthenticationError,
    "AUTHORIZATION_ERROR": AuthorizationError,
    "CONFLICT": ConflictError,
    "INTERNAL_ERROR": InternalError,
    "INVALID_REQUEST": InvalidRequestError,
    "NOT_FOUND": NotFoundError,
    "RATE_LIMITED": RateLimitedError,
    "VALIDATION_ERROR": ValidationError,
}

# The code an answer without an error envelope (a proxy's HTML 502, say) is taken to have.
_CODE_BY_STATUS = {
    400: "INVALID_REQUEST",
    401: "AUTHENTICATION_ERROR",
    403: "AUTHORIZATION_ERROR",
    404: "NOT_FOUND",
    409: "CONFLICT",
    413: "INVALID_REQUEST",
    415: "INVALID_REQUEST",
    422: "VALIDATION_ERROR",
    429: "RATE_LIMITED",
}


def details_of(raw: Any) -> List[ErrorDetail]:
    """``details`` as a list whatever the server sent: a list as it is, and the one object
    ``{"field", "issue", "code"?, "message"?}`` that INVALID_REQUEST carries in 2026-11-20 as a list
    of that one entry (its message, else ``"<field> <issue>"``). Entries without a message are
    dropped, a missing code is ``invalid_value``, anything else is ``[]``."""
    if isinstance(raw, dict):
        raw = [_published_detail(raw)]
    if not isinstance(raw, list):
        return []
    details: List[ErrorDetail] = []
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("message"), str):
            continue
        code = item.get("code")
        # In the API's order: field (when there is one), code, message.
        detail: ErrorDetail = {"field": item["field"]} if isinstance(item.get("field"), str) else {}  # type: ignore[typeddict-item]
        detail["code"] = code if isinstance(code, str) else "invalid_value"  # type: ignore[typeddict-item]
        detail["message"] = item["message"]
        details.append(detail)
    return details


def _published_detail(raw: Dict[str, Any]) -> Dict[str, Any]:
    """The 2026-11-20 object ``{field, issue}`` (with ``code`` and ``message`` when the server adds them) as a list entry."""
    field, issue = raw.get("field"), raw.get("issue")
    if isinstance(raw.get("message"), str) or not isinstance(issue, str):
        return raw
    return {**raw, "message": f"{field} {issue}" if isinstance(field, str) else issue}


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """``Retry-After`` in seconds: a number of seconds or an HTTP date; ``None`` if absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return max(0.0, seconds) if not math.isnan(seconds) else None
    try:
        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def error_from_response(status: int, headers: Mapping[str, str], body: Any) -> StoreApiError:
    """The error for an answer: from its envelope when it has one, else from its status.

    ``headers`` must have lower-case names; ``body`` is the raw bytes, the text or decoded JSON.
    """
    if isinstance(body, (bytes, bytearray)):
        body = body.decode("utf-8", "replace")
    if isinstance(body, str):
        try:
            body = json.loads(body) if body.strip() else None
        except ValueError:
            pass
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        code = error["code"]
        message = str(error.get("message") or code)
        details = error.get("details")
    else:
        code = _CODE_BY_STATUS.get(status, "INTERNAL_ERROR" if status >= 500 else "UNKNOWN_ERROR")
        text = body.strip() if isinstance(body, str) else ""
        message = f"HTTP {status}" + (f": {text[:200]}" if text else "")
        details = None
    cls = ERRORS_BY_CODE.get(code, StoreApiError)
    kwargs: Dict[str, Any] = dict(
        code=code, status=status, details=details, request_id=headers.get("x-request-id"), headers=headers, body=body
    )
    if cls is RateLimitedError:
        kwargs["retry_after"] = parse_retry_after(headers.get("retry-after"))
    return cls(message, **kwargs)
