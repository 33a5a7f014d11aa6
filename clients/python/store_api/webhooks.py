"""Verifying the store's webhook deliveries on the receiving side.

The same rules, and the same answers, as the TypeScript client's verifier
(``clients/typescript/src/webhooks.js``, formerly ``src/webhooks/verify.js``).

Two schemes sign every delivery, both over the exact body bytes as received (never parse and
re-serialise the JSON before verifying):

``X-Store-Signature``
    lowercase hex HMAC-SHA256 of the body, keyed with the whole secret string (``"whsec_..."``)
    as UTF-8 bytes.
``X-Store-Signature-Previous``
    the same with the previous secret, while a secret rotation overlaps.
``webhook-id`` / ``webhook-timestamp`` / ``webhook-signature`` (Standard Webhooks)
    ``"v1,<base64 HMAC-SHA256 of f"{id}.{timestamp}.{body}">"`` entries separated by spaces, keyed
    with the base64-decoded part of the secret after ``whsec_``; the timestamp must be within
    ``tolerance`` seconds (300) of now.

Malformed input from the network never raises: it is a failed verification. A missing or
non-string secret is the caller's mistake and raises TypeError.

Usage (Flask)::

    from store_api import verify_webhook

    @app.post("/webhooks")
    def receive():
        if not verify_webhook(request.get_data(), request.headers, os.environ["STORE_WEBHOOK_SECRET"]):
            return "", 400
        event = request.get_json()
        ...
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Union

__all__ = [
    "DEFAULT_TOLERANCE_SECONDS",
    "WebhookVerification",
    "get_header",
    "inspect_webhook",
    "verify_standard_webhook",
    "verify_store_signature",
    "verify_webhook",
]

#: Standard Webhooks' default: a timestamp more than five minutes away from now is refused.
DEFAULT_TOLERANCE_SECONDS = 300

_SECRET_PREFIX = "whsec_"
#: Bytes in an HMAC-SHA256.
_MAC_BYTES = 32
_HEX = re.compile(r"[0-9a-fA-F]*")
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_TIMESTAMP = re.compile(r"[0-9]{1,12}")

Body = Union[bytes, bytearray, memoryview, str]
Secrets = Union[str, Sequence[str]]


@dataclass(frozen=True)
class WebhookVerification:
    """The outcome of :func:`inspect_webhook`."""

    valid: bool
    #: Why it did not verify (``"missing X-Store-Signature header"``, ``"invalid signature"``, ...).
    reason: Optional[str] = None
    #: ``X-Store-Delivery``, else ``webhook-id``: deduplicate on it (every retry carries the same id).
    delivery_id: Optional[str] = None
    #: ``X-Store-Event``, else (when valid) the body's ``event``.
    event: Optional[str] = None


def _body_bytes(body: Body) -> bytes:
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, (bytes, bytearray, memoryview)):
        return bytes(body)
    raise TypeError("body must be the raw request body: bytes or a str")


def _hmac_sha256(key: bytes, message: bytes) -> bytes:
    return hmac.new(key, message, hashlib.sha256).digest()


def _hex_to_bytes(text: str) -> Optional[bytes]:
    """Bytes of an even number of hex digits, else None."""
    if len(text) % 2 != 0 or not _HEX.fullmatch(text):
        return None
    return bytes.fromhex(text)


def _base64_to_bytes(text: str) -> Optional[bytes]:
    """Standard base64 (padding optional, as the browsers' atob takes it) to bytes, else None."""
    if not _BASE64.fullmatch(text):
        return None
    if len(text) % 4 == 0:
        text = text[:-2] if text.endswith("==") else text[:-1] if text.endswith("=") else text
    if "=" in text or len(text) % 4 == 1:
        return None
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def _assert_secret(secret: Any, what: str = "secret") -> None:
    if not isinstance(secret, str) or secret == "":
        raise TypeError(f"{what} must be the endpoint's signing secret (a non-empty string, \"whsec_...\")")


def _standard_key(secret: str) -> bytes:
    encoded = secret[len(_SECRET_PREFIX) :] if secret.startswith(_SECRET_PREFIX) else secret
    key = _base64_to_bytes(encoded)
    if not key:
        raise ValueError('secret must be "whsec_" followed by base64 for Standard Webhooks verification')
    return key


def get_header(headers: Any, name: str) -> Optional[str]:
    """A header's value, its name matched case-insensitively, from a dict, an ``email.message.Message``
    (``http.server``'s ``self.headers``), a framework's headers object or a list of pairs. Repeated
    values are joined with ``", "``; None when absent."""
    if headers is None:
        return None
    wanted = name.lower()
    value: Any = None
    if hasattr(headers, "get_all") and callable(headers.get_all):  # email.message.Message
        values = headers.get_all(name)
        value = list(values) if values else None
    elif hasattr(headers, "keys") and callable(headers.keys):
        for key in list(headers.keys()):
            if isinstance(key, str) and key.lower() == wanted:
                value = headers[key]
                break
    else:
        found = [v for k, v in headers if isinstance(k, str) and k.lower() == wanted]
        value = found or None
    if isinstance(value, (list, tuple)):
        value = ", ".join(v for v in value if isinstance(v, str))
    return value if isinstance(value, str) else None


def verify_store_signature(body: Body, signature: Optional[str], secret: str) -> bool:
    """Verifies ``X-Store-Signature`` (or ``X-Store-Signature-Previous``): the lowercase hex
    HMAC-SHA256 of the exact body bytes, keyed with the whole secret string as UTF-8. False for a
    missing, truncated or non-hex signature and for any mismatch."""
    _assert_secret(secret)
    data = _body_bytes(body)
    if not isinstance(signature, str):
        return False
    given = _hex_to_bytes(signature.strip())
    if given is None or len(given) != _MAC_BYTES:
        return False
    return hmac.compare_digest(given, _hmac_sha256(secret.encode("utf-8"), data))


def verify_standard_webhook(
    body: Body,
    headers: Any,
    secret: str,
    tolerance: float = DEFAULT_TOLERANCE_SECONDS,
    *,
    now: Optional[float] = None,
) -> bool:
    """Verifies the Standard Webhooks headers: ``webhook-timestamp`` (Unix seconds) within
    ``tolerance`` seconds of ``now`` (default: the clock) either way, and at least one ``v1,<base64>``
    entry of the space-separated ``webhook-signature`` matching HMAC-SHA256 of
    ``f"{webhook_id}.{webhook_timestamp}.{body}"`` keyed with the base64-decoded secret after
    ``whsec_``. Entries of other versions are ignored. Raises ValueError for a secret that is not
    ``whsec_`` + base64."""
    _assert_secret(secret)
    key = _standard_key(secret)
    data = _body_bytes(body)
    msg_id = get_header(headers, "webhook-id")
    timestamp = get_header(headers, "webhook-timestamp")
    signatures = get_header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        return False
    timestamp = timestamp.strip()
    if not _TIMESTAMP.fullmatch(timestamp):
        return False
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > tolerance:
        return False
    expected = _hmac_sha256(key, f"{msg_id}.{timestamp}.".encode("utf-8") + data)
    matched = False
    for entry in signatures.strip().split():
        version, comma, encoded = entry.partition(",")
        if not comma or version != "v1":
            continue
        given = _base64_to_bytes(encoded)
        # No early exit: every entry is compared.
        if given is not None and len(given) == _MAC_BYTES and hmac.compare_digest(given, expected):
            matched = True
    return matched


def _secret_list(secret: Secrets) -> List[str]:
    keys: List[str] = [secret] if isinstance(secret, str) else list(secret if secret is not None else [])
    if not keys:
        raise TypeError("verify_webhook needs a secret (or a list of secrets)")
    for i, key in enumerate(keys):
        _assert_secret(key, f"secrets[{i}]")
    return keys


def _event_from_body(data: bytes) -> Optional[str]:
    try:
        parsed = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    event = parsed.get("event") if isinstance(parsed, dict) else None
    return event if isinstance(event, str) else None


def inspect_webhook(
    body: Body,
    headers: Any,
    secret: Secrets,
    tolerance: float = DEFAULT_TOLERANCE_SECONDS,
    *,
    now: Optional[float] = None,
) -> WebhookVerification:
    """Verifies a delivery and says why not, with its delivery id and event.

    ``secret`` is the endpoint's secret or, while you rotate it, a list of secrets (the new and the
    old one): it does not matter which one the store has switched to.

    Valid when ``X-Store-Signature`` or ``X-Store-Signature-Previous`` matches one of the secrets
    (``verifyWebhook`` of webhooks.js). A delivery that carries no matching ``X-Store-Signature`` is
    also valid when its Standard Webhooks headers verify (``verifyStandardWebhook``: a ``v1``
    signature and a timestamp within ``tolerance`` seconds), so either scheme is accepted.
    """
    keys = _secret_list(secret)
    data = _body_bytes(body)
    delivery_id = get_header(headers, "x-store-delivery")
    if delivery_id is None:
        delivery_id = get_header(headers, "webhook-id")
    event = get_header(headers, "x-store-event")

    candidates = [
        value.strip()
        for value in (get_header(headers, "x-store-signature"), get_header(headers, "x-store-signature-previous"))
        if value is not None and value.strip() != ""
    ]
    valid = False
    if not candidates:
        reason = "missing X-Store-Signature header"
    elif not any(len(c) == _MAC_BYTES * 2 and _hex_to_bytes(c) is not None for c in candidates):
        reason = "malformed signature (expected 64 hex characters)"
    else:
        reason = "invalid signature"
        for key in keys:
            for candidate in candidates:
                if verify_store_signature(data, candidate, key):
                    valid = True

    if not valid and get_header(headers, "webhook-signature"):
        for key in keys:
            try:
                if verify_standard_webhook(data, headers, key, tolerance, now=now):
                    valid = True
            except ValueError:  # a secret that is not whsec_ + base64 cannot sign this scheme
                continue
        if not valid and not candidates:
            reason = "invalid Standard Webhooks signature or timestamp"

    if not valid:
        return WebhookVerification(False, reason, delivery_id, event)
    # Without X-Store-Event, the (now trusted) body names the event.
    return WebhookVerification(True, None, delivery_id, event if event is not None else _event_from_body(data))


def verify_webhook(
    body: Body,
    headers: Any,
    secret: Secrets,
    tolerance: float = DEFAULT_TOLERANCE_SECONDS,
    *,
    now: Optional[float] = None,
) -> bool:
    """True when the delivery verifies (see :func:`inspect_webhook`), else False.

    ``body`` is the raw request body as received (bytes, or the text); ``headers`` any mapping of the
    request's headers (names are matched case-insensitively); ``secret`` the endpoint's ``whsec_...``
    secret, or a list of secrets during a rotation. Answer 400 to a delivery that does not verify.
    """
    return inspect_webhook(body, headers, secret, tolerance, now=now).valid
