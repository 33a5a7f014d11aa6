"""Unit tests of the Python client: no Store API needed.

    cd clients/python && python3 -m unittest discover -s tests -v
"""

from __future__ import annotations

import base64
import email.message
import hashlib
import hmac
import json
import os
import sys
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from store_api import (  # noqa: E402
    NOT_GIVEN,
    AuthenticationError,
    ConflictError,
    InternalError,
    InvalidRequestError,
    NotFoundError,
    RateLimitedError,
    STORE_VERSION,
    RetryEvent,
    StoreApi,
    StoreApiConnectionError,
    StoreApiError,
    ValidationError,
    backoff_delay,
    encode_query,
    inspect_webhook,
    verify_standard_webhook,
    verify_store_signature,
    verify_webhook,
)
from store_api import STORE_EVENT_TYPES, WebhookHandler, WebhookVerificationError, construct_event, is_newer_event  # noqa: E402
from store_api._http import compact_body, expand_path  # noqa: E402
from store_api.errors import error_from_response, parse_retry_after  # noqa: E402

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
OLD_SECRET = "whsec_c2VjcmV0LW9mLXRoZS1wYXN0LTEyMzQ1Ng=="
BODY = (
    '{"id":"evt_1","event":"order.placed","data":{"orderId":"ord_1","total":42.5},'
    '"timestamp":"2026-01-02T03:04:05.000Z"}'
)
# Computed with Node's crypto (createHmac) and checked against clients/typescript/src/webhooks.js (verifyWebhook, verifyStandardWebhook).
NODE_HEX = "ce088129213386c1bcd1862ac1b5590b830d5890d63c98674d4c7c196bf125ca"
NODE_V1 = "CTMz3hDV1pH47PcUhRmonmrmoyN9GourH3yhz9/q48M="
MSG_ID = "whd_1"
TS = "1767323045"


def store_sig(body: str, secret: str) -> str:
    """The X-Store-Signature, computed here independently of store_api.webhooks."""
    return hmac.new(secret.encode(), body.encode(), hashlib.sha256).hexdigest()


def standard_sig(msg_id: str, ts: str, body: str, secret: str) -> str:
    key = base64.b64decode(secret[len("whsec_") :])
    mac = hmac.new(key, f"{msg_id}.{ts}.{body}".encode(), hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


class TypedEventsTest(unittest.TestCase):
    """construct_event verifies and returns the body; WebhookHandler dispatches it by kind."""

    def test_construct_event_returns_the_verified_body_and_raises_on_a_bad_signature(self) -> None:
        event = construct_event(BODY, {"X-Store-Signature": store_sig(BODY, SECRET)}, SECRET)
        self.assertEqual(event["event"], "order.placed")
        self.assertEqual(event["data"]["orderId"], "ord_1")
        rotated = construct_event(BODY.encode(), {"X-Store-Signature": store_sig(BODY, OLD_SECRET)}, [SECRET, OLD_SECRET])
        self.assertEqual(rotated["id"], "evt_1")
        with self.assertRaises(WebhookVerificationError):
            construct_event(BODY, {"X-Store-Signature": store_sig(BODY, OLD_SECRET)}, SECRET)
        with self.assertRaisesRegex(WebhookVerificationError, "missing X-Store-Signature"):
            construct_event(BODY, {}, SECRET)
        self.assertIn("ping", STORE_EVENT_TYPES)

    def test_handler_answers_400_then_dispatches_by_kind_and_acknowledges_unknown_kinds(self) -> None:
        hooks = WebhookHandler(SECRET)
        seen: List[str] = []

        @hooks.on("order.placed")
        def placed(event: Any) -> None:
            seen.append(event["data"]["orderId"])

        @hooks.on("payment.failed")
        def failed(event: Any) -> None:
            raise RuntimeError("database down")

        self.assertEqual(hooks.handle(BODY, {"X-Store-Signature": store_sig(BODY, OLD_SECRET)}), 400)
        self.assertEqual(seen, [])
        self.assertEqual(hooks.handle(BODY, {"X-Store-Signature": store_sig(BODY, SECRET)}), 200)
        self.assertEqual(seen, ["ord_1"])
        later = '{"id":"evt_2","event":"order.teleported","data":{},"timestamp":"2026-01-02T03:04:05.000Z"}'
        self.assertEqual(hooks.handle(later, {"X-Store-Signature": store_sig(later, SECRET)}), 200)
        failing = '{"id":"evt_3","event":"payment.failed","data":{},"timestamp":"2026-01-02T03:04:05.000Z"}'
        with self.assertRaisesRegex(RuntimeError, "database down"):
            hooks.handle(failing, {"X-Store-Signature": store_sig(failing, SECRET)})
        with self.assertRaisesRegex(ValueError, "unknown event kind"):
            hooks.on("order.exploded")


class WebhookVerificationTest(unittest.TestCase):
    def test_independent_vectors_match_node(self) -> None:
        self.assertEqual(store_sig(BODY, SECRET), NODE_HEX)
        self.assertEqual(standard_sig(MSG_ID, TS, BODY, SECRET), "v1," + NODE_V1)

    def test_store_signature_valid(self) -> None:
        self.assertTrue(verify_webhook(BODY, {"X-Store-Signature": NODE_HEX}, SECRET))
        self.assertTrue(verify_webhook(BODY.encode(), {"X-Store-Signature": NODE_HEX}, SECRET))
        self.assertTrue(verify_store_signature(BODY, NODE_HEX, SECRET))

    def test_header_names_are_case_insensitive(self) -> None:
        for name in ("x-store-signature", "X-STORE-SIGNATURE", "X-Store-Signature"):
            self.assertTrue(verify_webhook(BODY, {name: NODE_HEX}, SECRET), name)
        message = email.message.Message()  # what http.server gives as self.headers
        message["X-Store-SIGNATURE"] = NODE_HEX
        self.assertTrue(verify_webhook(BODY, message, SECRET))
        self.assertTrue(verify_webhook(BODY, [("x-store-signature", NODE_HEX)], SECRET))

    def test_signature_trimmed_and_uppercase_hex_accepted(self) -> None:
        self.assertTrue(verify_webhook(BODY, {"X-Store-Signature": f"  {NODE_HEX.upper()} "}, SECRET))

    def test_tampered_body_wrong_secret_refused(self) -> None:
        self.assertFalse(verify_webhook(BODY.replace("42.5", "0.5"), {"X-Store-Signature": NODE_HEX}, SECRET))
        self.assertFalse(verify_webhook(BODY, {"X-Store-Signature": NODE_HEX}, OLD_SECRET))
        result = inspect_webhook(BODY + " ", {"X-Store-Signature": NODE_HEX}, SECRET)
        self.assertEqual((result.valid, result.reason), (False, "invalid signature"))

    def test_missing_and_malformed(self) -> None:
        self.assertEqual(inspect_webhook(BODY, {}, SECRET).reason, "missing X-Store-Signature header")
        self.assertEqual(inspect_webhook(BODY, {"X-Store-Signature": "  "}, SECRET).reason, "missing X-Store-Signature header")
        for bad in (NODE_HEX[:-1], NODE_HEX[:-2], "z" * 64, NODE_HEX + "00"):
            result = inspect_webhook(BODY, {"X-Store-Signature": bad}, SECRET)
            self.assertFalse(result.valid, bad)
            self.assertEqual(result.reason, "malformed signature (expected 64 hex characters)")
            self.assertFalse(verify_store_signature(BODY, bad, SECRET))
        self.assertFalse(verify_store_signature(BODY, None, SECRET))

    def test_previous_signature_during_rotation(self) -> None:
        headers = {"X-Store-Signature": store_sig(BODY, SECRET), "X-Store-Signature-Previous": store_sig(BODY, OLD_SECRET)}
        self.assertTrue(verify_webhook(BODY, headers, OLD_SECRET))
        self.assertTrue(verify_webhook(BODY, headers, SECRET))
        self.assertTrue(verify_webhook(BODY, {"X-Store-Signature-Previous": store_sig(BODY, OLD_SECRET)}, [SECRET, OLD_SECRET]))
        self.assertTrue(verify_webhook(BODY, {"X-Store-Signature": store_sig(BODY, OLD_SECRET)}, [SECRET, OLD_SECRET]))
        self.assertFalse(verify_webhook(BODY, {"X-Store-Signature": store_sig(BODY, "whsec_other")}, [SECRET, OLD_SECRET]))

    def test_delivery_id_and_event(self) -> None:
        result = inspect_webhook(BODY, {"X-Store-Signature": NODE_HEX, "X-Store-Delivery": "whd_9", "webhook-id": "whd_x"}, SECRET)
        self.assertEqual((result.valid, result.delivery_id, result.event), (True, "whd_9", "order.placed"))
        result = inspect_webhook(BODY, {"X-Store-Signature": NODE_HEX, "webhook-id": "whd_x", "X-Store-Event": "ping"}, SECRET)
        self.assertEqual((result.delivery_id, result.event), ("whd_x", "ping"))

    def test_standard_webhooks(self) -> None:
        now = int(TS)
        headers = {"webhook-id": MSG_ID, "webhook-timestamp": TS, "webhook-signature": "v1," + NODE_V1}
        self.assertTrue(verify_standard_webhook(BODY, headers, SECRET, now=now))
        self.assertTrue(verify_standard_webhook(BODY, headers, SECRET, now=now + 300))
        self.assertTrue(verify_standard_webhook(BODY, headers, SECRET, now=now - 300))
        self.assertFalse(verify_standard_webhook(BODY, headers, SECRET, now=now + 301))
        self.assertFalse(verify_standard_webhook(BODY, headers, SECRET, now=now - 301))
        self.assertTrue(verify_standard_webhook(BODY, headers, SECRET, 1000, now=now + 900))
        # Several entries, one matching; other versions ignored; padding optional (as atob).
        listed = dict(headers, **{"Webhook-Signature": f"v2,{NODE_V1} v1,AAAA v1,{NODE_V1.rstrip('=')}"})
        del listed["webhook-signature"]
        self.assertTrue(verify_standard_webhook(BODY, listed, SECRET, now=now))
        self.assertFalse(verify_standard_webhook(BODY, dict(headers, **{"webhook-signature": "v2," + NODE_V1}), SECRET, now=now))
        self.assertFalse(verify_standard_webhook(BODY, dict(headers, **{"webhook-signature": "v1,%%%"}), SECRET, now=now))
        self.assertFalse(verify_standard_webhook(BODY, dict(headers, **{"webhook-timestamp": "12a"}), SECRET, now=now))
        self.assertFalse(verify_standard_webhook(BODY, dict(headers, **{"webhook-id": ""}), SECRET, now=now))
        self.assertFalse(verify_standard_webhook(BODY + "x", headers, SECRET, now=now))
        self.assertFalse(verify_standard_webhook(BODY, {"webhook-id": MSG_ID, "webhook-timestamp": TS}, SECRET, now=now))
        with self.assertRaises(ValueError):
            verify_standard_webhook(BODY, headers, "whsec_***", now=now)

    def test_either_scheme_accepted(self) -> None:
        now = time.time()
        ts = str(int(now))
        headers = {"webhook-id": MSG_ID, "webhook-timestamp": ts, "webhook-signature": standard_sig(MSG_ID, ts, BODY, SECRET)}
        self.assertTrue(verify_webhook(BODY, headers, SECRET))
        self.assertFalse(verify_webhook(BODY.replace("ord_1", "ord_2"), headers, SECRET))
        old = dict(headers, **{"webhook-timestamp": TS, "webhook-signature": "v1," + NODE_V1})
        self.assertFalse(verify_webhook(BODY, old, SECRET))
        self.assertTrue(verify_webhook(BODY, old, SECRET, now=int(TS) + 10))
        both = dict(headers, **{"X-Store-Signature": NODE_HEX})
        self.assertTrue(verify_webhook(BODY, both, SECRET))

    def test_caller_mistakes_raise(self) -> None:
        with self.assertRaises(TypeError):
            verify_webhook(BODY, {}, "")
        with self.assertRaises(TypeError):
            verify_webhook(BODY, {}, [])
        with self.assertRaises(TypeError):
            verify_webhook(123, {"X-Store-Signature": NODE_HEX}, SECRET)  # type: ignore[arg-type]


class ErrorMappingTest(unittest.TestCase):
    def envelope(self, code: str, message: str = "m", details: Any = None) -> bytes:
        return json.dumps({"success": False, "error": {"code": code, "message": message, "details": details}}).encode()

    def test_details_always_a_list(self) -> None:
        def details(raw: Any) -> Any:
            return error_from_response(400, {}, self.envelope("INVALID_REQUEST", "Bad", raw)).details

        self.assertEqual(details(None), [])
        self.assertEqual(details("limit"), [])
        self.assertEqual(details([{"field": "name", "message": "Required"}, "junk"]), [{"field": "name", "code": "invalid_value", "message": "Required"}])
        self.assertEqual(details([{"code": "conflict", "message": "busy"}]), [{"code": "conflict", "message": "busy"}])
        self.assertEqual(error_from_response(502, {}, b"Bad gateway").details, [])

    def test_details_object_of_2026_11_20_is_a_list_of_one(self) -> None:
        def details(raw: Any) -> Any:
            return error_from_response(400, {}, self.envelope("INVALID_REQUEST", "Bad", raw)).details

        published = {"field": "limit", "issue": "must be a whole number from 1 to 100", "code": "too_big", "message": "limit must be a whole number from 1 to 100"}
        self.assertEqual(details(published), [{"field": "limit", "code": "too_big", "message": "limit must be a whole number from 1 to 100"}])
        # Without code and message (as the published specification shows it): invalid_value, and "<field> <issue>".
        self.assertEqual(
            details({"field": "Store-Version", "issue": "is not a version of this API"}),
            [{"field": "Store-Version", "code": "invalid_value", "message": "Store-Version is not a version of this API"}],
        )
        self.assertEqual(details({"issue": "is too large"}), [{"code": "invalid_value", "message": "is too large"}])
        self.assertEqual(details({"field": "limit"}), [])

    def test_envelope_codes(self) -> None:
        details = [{"field": "price", "code": "too_small", "message": "price must be 0 or more"}]
        error = error_from_response(422, {"x-request-id": "req_1"}, self.envelope("VALIDATION_ERROR", "Invalid body", details))
        self.assertIsInstance(error, ValidationError)
        self.assertEqual((error.code, error.status, error.message, error.details, error.request_id), ("VALIDATION_ERROR", 422, "Invalid body", details, "req_1"))
        self.assertIn("req_1", str(error))
        for code, cls in (
            ("NOT_FOUND", NotFoundError),
            ("CONFLICT", ConflictError),
            ("AUTHENTICATION_ERROR", AuthenticationError),
            ("INVALID_REQUEST", InvalidRequestError),
            ("INTERNAL_ERROR", InternalError),
        ):
            self.assertIsInstance(error_from_response(400, {}, self.envelope(code)), cls)
        unknown = error_from_response(418, {}, self.envelope("TEAPOT"))
        self.assertEqual(unknown.details, [])
        self.assertIs(type(unknown), StoreApiError)
        self.assertEqual(unknown.code, "TEAPOT")

    def test_rate_limited_retry_after(self) -> None:
        error = error_from_response(429, {"retry-after": "7"}, self.envelope("RATE_LIMITED"))
        assert isinstance(error, RateLimitedError)
        self.assertEqual(error.retry_after, 7.0)

    def test_without_envelope_by_status(self) -> None:
        error = error_from_response(502, {}, b"<html>Bad gateway</html>")
        self.assertIsInstance(error, InternalError)
        self.assertEqual((error.code, error.status), ("INTERNAL_ERROR", 502))
        self.assertIsInstance(error_from_response(404, {}, b""), NotFoundError)

    def test_parse_retry_after(self) -> None:
        self.assertEqual(parse_retry_after("2"), 2.0)
        self.assertIsNone(parse_retry_after(None))
        self.assertIsNone(parse_retry_after("soon"))
        self.assertEqual(parse_retry_after("Thu, 01 Jan 1970 00:00:00 GMT"), 0.0)


class BackoffAndEncodingTest(unittest.TestCase):
    def test_backoff_bounds(self) -> None:
        for retry in range(8):
            ceiling = min(8.0, 0.5 * 2**retry)
            self.assertEqual(backoff_delay(retry, rand=lambda: 0.0), 0.0)
            self.assertAlmostEqual(backoff_delay(retry, rand=lambda: 0.999999), ceiling * 0.999999)
            for _ in range(50):
                self.assertTrue(0.0 <= backoff_delay(retry) <= ceiling)
        self.assertLessEqual(backoff_delay(10, cap=2.0, rand=lambda: 1.0), 2.0)

    def test_query_encoding(self) -> None:
        self.assertEqual(encode_query({"active": True, "low": False}), "active=true&low=false")
        self.assertEqual(encode_query({"price_max": 30.0, "price_min": 9.99, "page": 2, "limit": 0}), "price_max=30&price_min=9.99&page=2&limit=0")
        self.assertEqual(encode_query({"q": None, "sort": "price:desc", "brand": NOT_GIVEN}), "sort=price:desc")
        self.assertEqual(encode_query({"fields": "id,name,variants(id,price)"}), "fields=id,name,variants(id,price)")
        self.assertEqual(encode_query({"fields": ["id", "name"]}), "fields=id,name")
        self.assertEqual(encode_query({"q": "a b&c=é"}), "q=a%20b%26c%3D%C3%A9")
        self.assertEqual(expand_path("/api/p/{id}/v/{variantId}", {"id": "a/b", "variantId": "x y"}), "/api/p/a%2Fb/v/x%20y")

    def test_compact_body(self) -> None:
        self.assertEqual(compact_body({"a": 1, "b": NOT_GIVEN, "c": None}), {"a": 1, "c": None})
        self.assertIs(compact_body({"a": NOT_GIVEN}, optional=True), NOT_GIVEN)
        self.assertEqual(compact_body({"a": NOT_GIVEN}), {})


class GeneratedSurfaceTest(unittest.TestCase):
    def test_groups_and_methods_in_python_style(self) -> None:
        store = StoreApi("http://127.0.0.1:9")
        for dotted in (
            "products.list",
            "products.iterate",
            "products.pages",
            "products.variants.create",
            "customers.addresses.list",
            "orders.cancel",
            "webhooks.rotate_secret",
            "carts.apply_coupon",
            "carts.checkout",
            "api_keys.create",
            "tax_rates.list",
            "audit_log.list",
            "auth.login",
        ):
            target: Any = store
            for part in dotted.split("."):
                target = getattr(target, part, None)
            self.assertTrue(callable(target), dotted)

    def test_signatures(self) -> None:
        import inspect

        store = StoreApi("http://127.0.0.1:9")
        cancel = inspect.signature(store.orders.cancel).parameters
        self.assertEqual(next(iter(cancel.values())).kind, inspect.Parameter.POSITIONAL_ONLY)
        self.assertIn("idempotency_key", cancel)
        listing = inspect.signature(store.products.list).parameters
        self.assertEqual(listing["price_max"].kind, inspect.Parameter.KEYWORD_ONLY)
        self.assertEqual(listing["price_max"].annotation, "Optional[float]")
        self.assertEqual(listing["page"].annotation, "Optional[int]")


# ---- a scripted fake server ------------------------------------------------------------------------

Answer = Tuple[int, Dict[str, str], Any]


class FakeServer:
    """Answers each request with the next scripted answer; records the requests."""

    def __init__(self, answers: List[Answer]) -> None:
        self.answers = list(answers)
        self.requests: List[Dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def handle_one(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                fake.requests.append(
                    {"method": self.command, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body, "at": time.monotonic()}
                )
                status, headers, payload = fake.answers.pop(0) if fake.answers else (500, {}, {"success": False})
                raw = b"" if payload is None else (payload if isinstance(payload, bytes) else json.dumps(payload).encode())
                self.send_response(status)
                self.send_header("X-Request-Id", f"req_{len(fake.requests)}")
                for name, value in headers.items():
                    self.send_header(name, value)
                if raw:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = do_PATCH = do_DELETE = handle_one

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def ok(data: Any, status: int = 200, pagination: Optional[Dict[str, Any]] = None) -> Answer:
    body: Dict[str, Any] = {"success": True, "data": data, "message": "ok"}
    if pagination is not None:
        body["pagination"] = pagination
    return (status, {}, body)


def fail(status: int, code: str, headers: Optional[Dict[str, str]] = None) -> Answer:
    return (status, headers or {}, {"success": False, "error": {"code": code, "message": code.lower(), "details": []}})


def pagination(page: int, total_pages: int) -> Dict[str, Any]:
    return {"page": page, "limit": 1, "total": total_pages, "totalPages": total_pages, "hasNext": page < total_pages, "hasPrev": page > 1}


class FakeServerTest(unittest.TestCase):
    def serve(self, answers: List[Answer]) -> FakeServer:
        server = FakeServer(answers)
        self.addCleanup(server.close)
        return server

    def test_429_retry_after_then_200(self) -> None:
        server = self.serve([fail(429, "RATE_LIMITED", {"Retry-After": "1"}), ok([{"id": "prod_1"}], pagination=pagination(1, 1))])
        events: List[RetryEvent] = []
        store = StoreApi(server.base, on_retry=events.append)
        page = store.products.list(price_max=30, sort="price:desc", fields="id,name")
        self.assertEqual([p["id"] for p in page.data], ["prod_1"])
        self.assertEqual(page.pagination["total"], 1)
        self.assertEqual(store.retry_count, 1)
        self.assertEqual(len(server.requests), 2)
        self.assertEqual((events[0].attempt, events[0].status, events[0].reason), (1, 429, "rate_limited"))
        self.assertGreaterEqual(events[0].delay, 1.0)
        self.assertGreaterEqual(server.requests[1]["at"] - server.requests[0]["at"], 0.95)
        path, _, query = server.requests[0]["path"].partition("?")
        self.assertEqual((path, sorted(query.split("&"))), ("/api/products", ["fields=id,name", "price_max=30", "sort=price:desc"]))
        self.assertNotIn("authorization", server.requests[0]["headers"])

    def test_store_version_sent_by_default_and_when_given(self) -> None:
        self.assertRegex(STORE_VERSION, r"^\d{4}-\d{2}-\d{2}$")
        server = self.serve([ok({"id": "prod_1"})] * 5)
        store = StoreApi(server.base, api_key="sk_test")
        self.assertEqual(store.store_version, STORE_VERSION)
        store.products.get("prod_1")
        older = StoreApi(server.base, api_key="sk_test", store_version="2026-11-20")
        self.assertEqual(older.store_version, "2026-11-20")
        older.products.get("prod_1")
        older.with_options(buyer_ip="203.0.113.7").products.get("prod_1")
        store.with_options(store_version="2026-11-20").products.get("prod_1")
        # A Store-Version header, in any case, wins over the option, and is sent once.
        older.request("GET", "/api/products/prod_1", headers={"store-version": "2026-11-28"})
        sent = [r["headers"].get("store-version") for r in server.requests]
        self.assertEqual(sent, [STORE_VERSION, "2026-11-20", "2026-11-20", "2026-11-20", "2026-11-28"])
        self.assertEqual(store.store_version, STORE_VERSION, "with_options leaves the client as it is")

    def test_invalid_request_in_2026_11_20_has_details_as_a_list(self) -> None:
        published = {"field": "limit", "issue": "must be a whole number from 1 to 100", "code": "too_big", "message": "limit must be a whole number from 1 to 100"}
        answer = (400, {"Store-Version": "2026-11-20"}, {"success": False, "error": {"code": "INVALID_REQUEST", "message": "Bad limit", "details": published}})
        server = self.serve([answer])
        with self.assertRaises(InvalidRequestError) as caught:
            StoreApi(server.base, store_version="2026-11-20").products.list(limit=100000)
        self.assertEqual(caught.exception.details, [{"field": "limit", "code": "too_big", "message": "limit must be a whole number from 1 to 100"}])
        self.assertEqual(caught.exception.headers.get("store-version"), "2026-11-20")

    def test_sends_back_the_newest_bookmark(self) -> None:
        created = (201, {"X-D1-Bookmark": "00000002-0000000a"}, {"success": True, "data": {"id": "c1"}})
        older = (200, {"X-D1-Bookmark": "00000001-00000001"}, {"success": True, "data": {"id": "c1"}})
        server = self.serve([created, older, ok({"id": "c1"})])
        store = StoreApi(server.base, api_key="sk_test")
        store.categories.create(name="Bags")
        store.categories.get("c1")
        store.categories.get("c1")
        self.assertEqual([r["headers"].get("x-d1-bookmark") for r in server.requests], [None, "00000002-0000000a", "00000002-0000000a"])

    def test_retry_after_beyond_max_wait_raises_at_once(self) -> None:
        server = self.serve([fail(429, "RATE_LIMITED", {"Retry-After": "3600"})])
        store = StoreApi(server.base, max_retry_wait=10)
        with self.assertRaises(RateLimitedError) as caught:
            store.products.list()
        self.assertEqual((caught.exception.retry_after, caught.exception.status, caught.exception.request_id), (3600.0, 429, "req_1"))
        self.assertEqual(store.retry_count, 0)

    def test_429_retries_spent(self) -> None:
        server = self.serve([fail(429, "RATE_LIMITED")] * 3)
        store = StoreApi(server.base, max_retries=2)
        store.http.sleep = lambda s: None
        with self.assertRaises(RateLimitedError):
            store.products.list()
        self.assertEqual((len(server.requests), store.retry_count), (3, 2))

    def test_5xx_retried_for_get_and_idempotent_post_only(self) -> None:
        server = self.serve([fail(500, "INTERNAL_ERROR"), ok({"id": "prod_1"})])
        store = StoreApi(server.base, api_key="sk_test")
        store.http.sleep = lambda s: None
        self.assertEqual(store.products.get("prod_1"), {"id": "prod_1"})
        self.assertEqual(store.retry_count, 1)
        self.assertEqual(server.requests[0]["headers"]["authorization"], "Bearer sk_test")

        server = self.serve([fail(503, "INTERNAL_ERROR"), ok({"id": "x"}, 201)])
        store = StoreApi(server.base, api_key="sk_test")
        store.http.sleep = lambda s: None
        with self.assertRaises(InternalError):
            store.categories.create(name="Bags")
        self.assertEqual((len(server.requests), store.retry_count), (1, 0))
        self.assertEqual(json.loads(server.requests[0]["body"]), {"name": "Bags"})

        server = self.serve([fail(500, "INTERNAL_ERROR"), ok({"id": "ord_1"}, 201)])
        store = StoreApi(server.base, cart_token="ct_1")
        store.http.sleep = lambda s: None
        order = store.carts.checkout("cart_1", email="a@example.com")
        self.assertEqual(order["id"], "ord_1")
        keys = [r["headers"].get("idempotency-key") for r in server.requests]
        self.assertEqual(len(keys), 2)
        self.assertTrue(keys[0] and keys[0] == keys[1], keys)
        self.assertEqual(server.requests[0]["headers"]["x-cart-token"], "ct_1")

    def test_idempotency_key_given_and_automatic(self) -> None:
        server = self.serve([ok({"id": "ord_1"}, 201), ok({"id": "ord_2"}, 201)])
        store = StoreApi(server.base, api_key="sk_test")
        store.orders.cancel("ord_1", reason="customer asked", idempotency_key="key-1")
        store.orders.cancel("ord_1")
        self.assertEqual(server.requests[0]["headers"]["idempotency-key"], "key-1")
        self.assertEqual(json.loads(server.requests[0]["body"]), {"reason": "customer asked"})
        self.assertRegex(server.requests[1]["headers"]["idempotency-key"], r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")

    def test_network_error_is_connection_error(self) -> None:
        server = self.serve([])
        base = server.base
        server.close()
        store = StoreApi(base, max_retries=1, timeout=2)
        store.http.sleep = lambda s: None
        with self.assertRaises(StoreApiConnectionError):
            store.products.list()
        self.assertEqual(store.retry_count, 1)

    def test_pagination_iterates_every_page(self) -> None:
        server = self.serve([ok([{"id": f"p{n}"}], pagination=pagination(n, 3)) for n in (1, 2, 3)])
        store = StoreApi(server.base)
        ids = [p["id"] for p in store.products.iterate(limit=1, category="bags")]
        self.assertEqual(ids, ["p1", "p2", "p3"])
        self.assertEqual(
            [sorted(r["path"].split("?")[1].split("&")) for r in server.requests],
            [["category=bags", "limit=1"], ["category=bags", "limit=1", "page=2"], ["category=bags", "limit=1", "page=3"]],
        )

    def test_delete_and_token(self) -> None:
        server = self.serve([(204, {}, None)])
        store = StoreApi(server.base, api_key="sk_test")
        store.set_token("jwt_1")
        store.products.delete("prod_1")
        self.assertEqual(server.requests[0]["headers"]["authorization"], "Bearer jwt_1")
        self.assertEqual((server.requests[0]["method"], server.requests[0]["path"]), ("DELETE", "/api/products/prod_1"))

    def test_credential_precedence_token_api_key_publishable_key(self) -> None:
        server = self.serve([ok({"id": "prod_1"})] * 6)
        store = StoreApi(server.base, publishable_key="pk_shop")
        self.assertIn("publishable_key", repr(store))
        store.products.get("prod_1")  # only a publishable key: it is sent
        store.set_token("jwt_shopper")
        store.products.get("prod_1")  # a signed-in shopper: its token instead
        store.set_token(None)
        store.products.get("prod_1")  # signed out: the publishable key again
        store.set_api_key("sk_server")
        store.products.get("prod_1")  # a secret key wins over the publishable key
        store.with_options(token="jwt_other").products.get("prod_1")  # a token wins over both
        store.set_api_key(None)
        store.set_publishable_key(None)
        store.products.get("prod_1")  # nothing left: anonymous
        self.assertEqual(
            [r["headers"].get("authorization") for r in server.requests],
            ["Bearer pk_shop", "Bearer jwt_shopper", "Bearer pk_shop", "Bearer sk_server", "Bearer jwt_other", None],
        )

    def test_buyer_ip_for_the_client_and_per_request(self) -> None:
        server = self.serve([ok({"id": "prod_1"})] * 6)
        store = StoreApi(server.base, api_key="sk_server", buyer_ip="203.0.113.7")
        store.products.get("prod_1")
        store.carts.create()
        shopper = store.with_options(buyer_ip="2001:db8::1")
        shopper.products.get("prod_1")
        store.request("GET", "/api/products", buyer_ip="198.51.100.2")
        store.products.get("prod_1")  # with_options left the client as it was
        store.set_buyer_ip(None)
        store.products.get("prod_1")
        self.assertEqual(
            [r["headers"].get("x-buyer-ip") for r in server.requests],
            ["203.0.113.7", "203.0.113.7", "2001:db8::1", "198.51.100.2", "203.0.113.7", None],
        )
        self.assertTrue(all(r["headers"].get("authorization") == "Bearer sk_server" for r in server.requests))
        self.assertIsNot(shopper.http, store.http)
        with self.assertRaises(TypeError):
            store.with_options(buyerip="203.0.113.7")

    def test_error_answer_raises_typed_error(self) -> None:
        server = self.serve([fail(404, "NOT_FOUND")])
        store = StoreApi(server.base + "/api/")
        with self.assertRaises(NotFoundError) as caught:
            store.products.get("prod_nope")
        self.assertEqual((caught.exception.status, caught.exception.code, caught.exception.request_id), (404, "NOT_FOUND", "req_1"))
        self.assertEqual(server.requests[0]["path"], "/api/products/prod_nope")


if __name__ == "__main__":
    unittest.main()


class OrderingTest(unittest.TestCase):
    """is_newer_event keeps events about a resource in the order the store wrote them."""

    def test_an_older_sequence_arriving_late_is_skipped(self) -> None:
        last = None
        applied = []
        for event in [{"sequence": 1}, {"sequence": 3}, {"sequence": 2}, {"sequence": 3}, {"sequence": None}]:
            if not is_newer_event(event, last):
                continue
            applied.append(event["sequence"])
            if event["sequence"] is not None:
                last = event["sequence"]
        self.assertEqual(applied, [1, 3, None])
