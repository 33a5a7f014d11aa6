"""Typed webhook events: verify a delivery and get its body as the TypedDict of its kind.

The kinds and their bodies (``OrderPlacedEvent`` with its ``OrderPlacedEventData``, ...) are generated
from the OpenAPI document's ``webhooks`` (``_events.py``, ``_types.py``).

    from store_api import WebhookHandler

    hooks = WebhookHandler(os.environ["STORE_WEBHOOK_SECRET"])

    @hooks.on("order.placed")
    def placed(event: OrderPlacedEvent) -> None:
        print(event["data"]["orderNumber"])

    status = hooks.handle(raw_body, request_headers)   # 400, or 200 after the handler ran
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Optional, TypeVar, cast

from ._events import EVENT_BODIES, STORE_EVENT_TYPES, StoreEvent
from .webhooks import DEFAULT_TOLERANCE_SECONDS, Body, Secrets, _body_bytes, inspect_webhook

__all__ = ["STORE_EVENT_TYPES", "EVENT_BODIES", "StoreEvent", "WebhookHandler", "WebhookVerificationError", "construct_event"]

Handler = TypeVar("Handler", bound=Callable[..., Any])


class WebhookVerificationError(ValueError):
    """A delivery that does not verify, or whose body is not an event: answer 400."""


def construct_event(body: Body, headers: Any, secret: Secrets, tolerance: float = DEFAULT_TOLERANCE_SECONDS) -> StoreEvent:
    """Verifies a delivery (see :func:`store_api.inspect_webhook`) and returns its body, typed by ``event``.

    ``secret`` is the endpoint's ``whsec_...`` secret, or a list during a rotation. Raises
    :class:`WebhookVerificationError` when it does not verify. A kind added to the store after this
    client was generated is returned too, with an ``event`` outside ``STORE_EVENT_TYPES``.
    """
    verified = inspect_webhook(body, headers, secret, tolerance)
    if not verified.valid:
        raise WebhookVerificationError(f"Webhook not verified: {verified.reason}")
    try:
        event = json.loads(_body_bytes(body).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise WebhookVerificationError("Webhook body is not JSON") from None
    if not isinstance(event, dict) or not isinstance(event.get("event"), str):
        raise WebhookVerificationError("Webhook body is not an event ({ id, event, data, timestamp })")
    return cast(StoreEvent, event)


class WebhookHandler:
    """Dispatches verified deliveries to the function registered for their kind.

    :meth:`handle` answers the status to send back: 400 for a delivery that does not verify, 200 once
    the kind's function ran (and for a kind with none). An exception from a function propagates, so
    your framework answers 500 and the store retries the delivery. Deduplicate on
    ``X-Store-Delivery`` inside your functions: a delivery can come twice.
    """

    def __init__(self, secret: Secrets, tolerance: float = DEFAULT_TOLERANCE_SECONDS) -> None:
        self._secret = secret
        self._tolerance = tolerance
        self._handlers: Dict[str, Callable[[Any], Any]] = {}

    def on(self, kind: str) -> Callable[[Handler], Handler]:
        """Registers the decorated function for events of ``kind`` (``"order.placed"``, ...)."""
        if kind not in STORE_EVENT_TYPES:
            raise ValueError(f"unknown event kind {kind!r}: one of {', '.join(STORE_EVENT_TYPES)}")

        def register(function: Handler) -> Handler:
            self._handlers[kind] = function
            return function

        return register

    def handle(self, body: Body, headers: Any) -> int:
        """Verifies the delivery, runs its kind's function, and returns the HTTP status to answer."""
        try:
            event = construct_event(body, headers, self._secret, self._tolerance)
        except WebhookVerificationError:
            return 400
        handler: Optional[Callable[[Any], Any]] = self._handlers.get(event["event"])
        if handler is not None:
            handler(event)
        return 200


def is_newer_event(event: Any, last_applied: Optional[int]) -> bool:
    """Ordering (the store's docs/webhooks.md, Ordering): the events about one resource (an order, a
    product, a customer) carry ``sequence`` 1, 2, 3, ... in the order the store wrote them, whatever
    order they arrive in. Keep, per ``resourceId``, the highest sequence you applied: an event at or
    below it is older news (it arrived late, or twice) and is skipped. An event with no sequence (a
    test ping) is always new."""
    sequence = event.get("sequence") if isinstance(event, dict) else None
    if sequence is None:
        return True
    return last_applied is None or sequence > last_applied
