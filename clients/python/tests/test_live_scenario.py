"""The clients' live scenario against a running Store API.

    STORE_API_BASE=http://127.0.0.1:8787 STORE_API_KEY=sk_... \\
        python3 -m unittest discover -s tests -p "test_live*.py" -v      # from clients/python

STORE_API_BASE is where the Worker answers (without /api), STORE_API_KEY an admin API key. Without
STORE_API_BASE the module is skipped, so the unit-test run needs no server. Every run makes its own
data with unique names, so it can follow the other clients' runs against the same Worker. The
Worker is expected to run with RATE_LIMIT_ANONYMOUS=10 and RATE_LIMIT_WINDOW_SECONDS=2 (the 429
step) and WEBHOOK_ALLOW_PRIVATE_URLS=true (the loopback webhook receiver).
"""

from __future__ import annotations

import base64
import os
import random
import sys
import threading
import time
import unittest
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

BASE = os.environ.get("STORE_API_BASE", "").strip()
API_KEY = os.environ.get("STORE_API_KEY", "").strip()
if not BASE:
    raise unittest.SkipTest("STORE_API_BASE is not set: the live scenario needs a running Store API (npm run test:clients starts one)")

from store_api import (  # noqa: E402
    STORE_VERSION,
    AuthorizationError,
    InvalidRequestError,
    NotFoundError,
    RetryEvent,
    StoreApi,
    ValidationError,
    inspect_webhook,
    verify_standard_webhook,
    verify_webhook,
)
from store_api.types import CheckoutShippingAddress  # noqa: E402

RUN = uuid.uuid4().hex[:10]


class Receiver:
    """A loopback webhook receiver: keeps each delivery's raw body and headers, answers 200."""

    def __init__(self) -> None:
        self.deliveries: List[Dict[str, Any]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                receiver.deliveries.append({"path": self.path, "headers": self.headers, "body": body})
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/{RUN}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class LiveScenario(unittest.TestCase):
    """The steps run in order (their names are numbered) and share what they made."""

    state: Dict[str, Any] = {}
    retries: List[RetryEvent] = []
    admin: StoreApi
    guest: StoreApi

    @classmethod
    def setUpClass(cls) -> None:
        if not API_KEY:
            raise unittest.SkipTest("STORE_API_KEY is not set: the live scenario needs an admin API key")
        cls.admin = StoreApi(BASE, api_key=API_KEY, on_retry=cls.retries.append)
        cls.guest = StoreApi(BASE, on_retry=cls.retries.append)

    @classmethod
    def tearDownClass(cls) -> None:
        statuses = sorted({str(e.status or e.reason) for e in cls.retries})
        print(f"\n[python live] run {RUN}: {len(cls.retries)} retries by the shared clients ({', '.join(statuses) or 'none'})", file=sys.stderr)

    def need(self, *keys: str) -> None:
        missing = [k for k in keys if k not in self.state]
        if missing:
            self.fail(f"an earlier step failed: nothing made for {', '.join(missing)}")

    # -- the catalogue, as admin with the API key ---------------------------------------------

    def test_01_admin_creates_category_and_product(self) -> None:
        category = self.admin.categories.create(name=f"Py bags {RUN}", slug=f"py-bags-{RUN}")
        self.assertTrue(category["id"])
        product = self.admin.products.create(
            name=f"Py tote {RUN}",
            slug=f"py-tote-{RUN}",
            price=25.5,
            status="active",
            categoryIds=[category["id"]],
            sku=f"PY-{RUN}",
            stock=20,
        )
        self.assertEqual((product["name"], product["status"], product["price"]), (f"Py tote {RUN}", "active", 25.5))
        variant = self.admin.products.variants.create(product["id"], sku=f"PY-{RUN}-L", name="Large", price=31.0, stock=7)
        self.assertEqual((variant["price"], variant["stock"]), (31.0, 7))
        self.state.update(category=category, product=product, variant=variant)

    def test_02_list_with_filter_sort_and_fields(self) -> None:
        self.need("category", "product", "variant")
        page = self.admin.products.list(category=self.state["category"]["id"], sort="price:desc", fields="id,name,variants(id,price)")
        self.assertEqual([p["id"] for p in page.data], [self.state["product"]["id"]])
        self.assertEqual(page.pagination["total"], 1)
        self.assertIsNone(page.facets)
        faceted = self.admin.products.list(category=self.state["category"]["id"], facets="category,price", fields="id")
        ours = [c for c in faceted.facets["category"] if c["id"] == self.state["category"]["id"]]
        self.assertEqual(ours[0]["count"], 1)
        item = page.data[0]
        self.assertEqual(sorted(item), ["id", "name", "variants"])
        self.assertEqual(len(item["variants"]), 2)
        for variant in item["variants"]:
            self.assertEqual(sorted(variant), ["id", "price"])
        self.assertIn(self.state["variant"]["id"], [v["id"] for v in item["variants"]])
        # The iterator reaches the same product through every page.
        ids = [p["id"] for p in self.admin.products.iterate(category=self.state["category"]["slug"], limit=1)]
        self.assertEqual(ids, [self.state["product"]["id"]])

    def test_03_get_product(self) -> None:
        self.need("product")
        product = self.admin.products.get(self.state["product"]["id"])
        self.assertEqual(product["name"], f"Py tote {RUN}")
        self.assertEqual(product["stock"], 27)

    def test_03_upload_image(self) -> None:
        self.need("product")
        png = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
        media = self.admin.products.media.create(self.state["product"]["id"], png, alt="Front")
        self.assertEqual((media["contentType"], media["width"], media["height"], media["alt"]), ("image/png", 1, 1, "Front"))
        with urllib.request.urlopen(media["url"]) as served:
            self.assertEqual(served.read(), png)

    # -- a guest cart and checkout, replayed with the same idempotency key --------------------

    def test_04_guest_cart_checkout_and_replay(self) -> None:
        self.need("variant")
        cart = self.guest.carts.create(email=f"py-guest-{RUN}@example.com")
        self.assertTrue(cart["token"].startswith("ct_"))
        self.guest.set_cart_token(cart["token"])
        filled = self.guest.carts.lines.add(cart["id"], variantId=self.state["variant"]["id"], quantity=2)
        self.assertEqual(len(filled["lines"]), 1)
        key = f"py-checkout-{RUN}"
        address: CheckoutShippingAddress = {"line1": "1 Main St", "city": "Berlin", "country": "DE"}
        order = self.guest.carts.checkout(cart["id"], idempotency_key=key, shippingAddress=address)
        again = self.guest.carts.checkout(cart["id"], idempotency_key=key, shippingAddress=address)
        self.assertEqual(order["id"], again["id"])
        replay = self.guest.last_response
        self.assertEqual(replay.headers.get("idempotent-replayed") if replay else None, "true")
        self.assertEqual((order["status"], order["total"] >= 62.0), ("pending", True))
        self.state["order"] = order

    # -- a customer signs up, signs in, reads itself --------------------------------------------

    def test_05_customer_register_login_me(self) -> None:
        email = f"py-customer-{RUN}@example.com"
        customer = StoreApi(BASE, on_retry=self.retries.append)
        session = customer.auth.register(email=email, password=f"pw-{RUN}-long", name="Py Customer")
        self.assertTrue(session["token"])
        session = customer.auth.login(email=email, password=f"pw-{RUN}-long")
        customer.set_token(session["token"])
        me = customer.auth.me()
        self.assertEqual(me["email"], email)

    # -- storefronts: a publishable key, and a server naming its shoppers ----------------------

    def test_05a_publishable_key_catalogue_cart_and_sign_in(self) -> None:
        self.need("category", "variant")
        shop = "https://shop.example"
        minted = self.admin.api_keys.create(name=f"Py storefront {RUN}", type="publishable", allowedOrigins=[shop])
        self.assertTrue(minted["key"].startswith("pk_"))
        browser = StoreApi(BASE, publishable_key=minted["key"], on_retry=self.retries.append)
        page = browser.products.list(category=self.state["category"]["slug"])
        self.assertEqual([p["id"] for p in page.data], [self.state["product"]["id"]])
        cart = browser.carts.create()
        self.assertTrue(cart["token"].startswith("ct_"))
        browser.set_cart_token(cart["token"])
        self.assertEqual(len(browser.carts.lines.add(cart["id"], variantId=self.state["variant"]["id"], quantity=1)["lines"]), 1)
        self.assertEqual(browser.request("GET", "/api/products", query={"limit": 1}, headers={"Origin": shop})["success"], True)
        with self.assertRaises(AuthorizationError):
            browser.request("GET", "/api/products", headers={"Origin": "https://evil.example"})
        # A shopper signs up through the key; its token replaces the key until it signs out.
        email = f"py-pk-{RUN}@example.com"
        session = browser.auth.register(email=email, password=f"pw-{RUN}-long", name="Py Shopper")
        browser.set_token(session["token"])
        self.assertEqual(browser.auth.me()["email"], email)
        browser.set_token(None)
        with self.assertRaises(AuthorizationError):
            browser.auth.me()

    def test_05b_buyer_ip_counted_on_each_shopper(self) -> None:
        minted = self.admin.api_keys.create(name=f"Py server {RUN}", permissions=["storefront:buyer-ip"])
        group = lambda: format(random.randrange(0x10000), "x")  # noqa: E731
        first, second = f"2001:db8:{group()}:{group()}::1", f"2001:db8:{group()}:{group()}::2"
        server = StoreApi(BASE, api_key=minted["key"], buyer_ip=first, max_retries=0)
        seen = []
        for client in (server, server, server.with_options(buyer_ip=second)):
            client.products.list(limit=1)
            answer = client.last_response
            assert answer is not None
            seen.append((answer.status, int(answer.headers["x-ratelimit-limit"]), int(answer.headers["x-ratelimit-remaining"])))
        limit = seen[0][1]
        self.assertGreater(limit, 2)
        # The second shopper starts afresh (not the key's count). The first shopper's own count went
        # down, unless the test Worker's two-second window passed between its requests.
        self.assertEqual([status for status, _, _ in seen], [200, 200, 200])
        self.assertEqual(seen[0][2], limit - 1)
        self.assertIn(seen[1][2], (limit - 2, limit - 1))
        self.assertEqual(seen[2][2], limit - 1)

    # -- an admin call with the API key -------------------------------------------------------

    def test_06_admin_lists_orders(self) -> None:
        self.need("order")
        page = self.admin.orders.list(limit=100, sort="createdAt:desc")
        self.assertIn(self.state["order"]["id"], [o["id"] for o in page.data])
        self.assertGreaterEqual(page.pagination["total"], 1)

    # -- typed errors ---------------------------------------------------------------------------

    def test_07_not_found(self) -> None:
        with self.assertRaises(NotFoundError) as caught:
            self.admin.products.get("prod_nope")
        error = caught.exception
        self.assertEqual((error.code, error.status), ("NOT_FOUND", 404))
        self.assertTrue(error.request_id)
        self.assertTrue(error.message)

    def test_08_validation_error(self) -> None:
        with self.assertRaises(ValidationError) as caught:
            self.admin.products.create(name="", price=-1)
        error = caught.exception
        self.assertEqual((error.code, error.status), ("VALIDATION_ERROR", 422))
        self.assertTrue(error.request_id)
        self.assertIsInstance(error.details, list)
        fields = {d.get("field") for d in error.details}
        self.assertTrue({"name", "price"} & fields, error.details)

    def test_08a_errors_in_both_versions(self) -> None:
        # The admin key was minted on the store's default (2026-11-20): the header the client sends wins over it.
        for version in (None, "2026-11-20"):
            client = StoreApi(BASE, api_key=API_KEY, store_version=version)
            expected = version or STORE_VERSION
            self.assertEqual(client.store_version, expected)
            with self.assertRaises(InvalidRequestError) as caught:
                client.products.list(limit=100000)
            error = caught.exception
            self.assertEqual((error.status, error.headers.get("store-version")), (400, expected))
            self.assertEqual(len(error.details), 1, error.details)
            self.assertEqual(error.details[0].get("field"), "limit")
            self.assertTrue(error.details[0]["message"].startswith("limit "), error.details)
            # What the server sent: one object in 2026-11-20, a list since 2026-11-28.
            self.assertEqual(isinstance(error.body["error"]["details"], list), expected >= "2026-11-28", error.body)
            print(f"\n[python live] {expected}: sent {type(error.body['error']['details']).__name__}, read {error.details}", file=sys.stderr)
            with self.assertRaises(ValidationError) as invalid:
                client.products.create(name="", price=-1)
            self.assertEqual(invalid.exception.headers.get("store-version"), expected)
            self.assertEqual(sorted(d.get("field") for d in invalid.exception.details), ["name", "price"])

    # -- the anonymous rate limit, carried through by the automatic retry ----------------------

    def test_09_rate_limit_retried(self) -> None:
        events: List[RetryEvent] = []
        anonymous = StoreApi(BASE, on_retry=events.append)
        for _ in range(15):
            page = anonymous.products.list(limit=1)
            self.assertIsInstance(page.data, list)
        self.assertGreaterEqual(anonymous.retry_count, 1, "15 anonymous requests in a row should have met a 429")
        self.assertTrue(any(e.status == 429 and e.delay > 0 for e in events), events)
        print(f"\n[python live] 15 anonymous lists: {anonymous.retry_count} retries, waits {[round(e.delay, 2) for e in events]}", file=sys.stderr)

    # -- a webhook delivery to a loopback receiver, verified ------------------------------------

    def test_10_webhook_delivery_verified(self) -> None:
        receiver = Receiver()
        self.addCleanup(receiver.close)
        endpoint = self.admin.webhooks.create(url=receiver.url, events=["*"], description=f"python live {RUN}")
        secret = endpoint["secret"]
        self.assertTrue(secret.startswith("whsec_"))
        self.addCleanup(lambda: self.admin.webhooks.delete(endpoint["id"]))
        self.admin.webhooks.test(endpoint["id"])
        deadline = time.monotonic() + 20
        while not receiver.deliveries and time.monotonic() < deadline:
            time.sleep(0.2)
        self.assertTrue(receiver.deliveries, "no delivery reached the receiver within 20 s")
        delivery = receiver.deliveries[0]
        body, headers = delivery["body"], delivery["headers"]
        self.assertTrue(verify_webhook(body, headers, secret))
        self.assertTrue(verify_standard_webhook(body, headers, secret))
        result = inspect_webhook(body, headers, secret)
        self.assertTrue(result.valid)
        self.assertTrue(result.delivery_id)
        tampered = body.replace(b'"', b"'", 1)
        self.assertFalse(verify_webhook(tampered, headers, secret))
        self.assertFalse(verify_webhook(body, headers, "whsec_" + "A" * 32))


if __name__ == "__main__":
    unittest.main()
