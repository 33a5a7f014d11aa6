-- The store's settings row and its default currency, and the commerce invariants the database
-- itself enforces. D1 has no interactive transactions: a batch that would break one of these rules
-- fails as a whole (RAISE(ABORT) rolls the batch back), so concurrent orders can never oversell,
-- overuse a coupon, overpay or overship. src/lib/db-guards.ts maps each message to a 409.
INSERT INTO `store_settings` (`id`, `name`, `default_currency`) VALUES ('store', 'My Store', 'USD');
--> statement-breakpoint
INSERT INTO `currencies` (`code`, `name`, `symbol`, `minor_units`, `exchange_rate`, `enabled`) VALUES ('USD', 'US Dollar', '$', 2, '1', 1);
--> statement-breakpoint
CREATE TRIGGER `product_variants_stock_guard` BEFORE UPDATE OF `stock` ON `product_variants`
WHEN NEW.`stock` < 0
BEGIN
  SELECT RAISE(ABORT, 'guard:insufficient_stock');
END;
--> statement-breakpoint
CREATE TRIGGER `coupons_usage_guard` BEFORE UPDATE OF `times_used` ON `coupons`
WHEN NEW.`usage_limit` IS NOT NULL AND NEW.`times_used` > NEW.`usage_limit`
BEGIN
  SELECT RAISE(ABORT, 'guard:coupon_usage_limit');
END;
--> statement-breakpoint
CREATE TRIGGER `coupon_usages_customer_guard` BEFORE INSERT ON `coupon_usages`
WHEN (SELECT `usage_limit_per_customer` FROM `coupons` WHERE `id` = NEW.`coupon_id`) IS NOT NULL
  AND (SELECT count(*) FROM `coupon_usages` WHERE `coupon_id` = NEW.`coupon_id` AND `customer_key` = NEW.`customer_key`)
    >= (SELECT `usage_limit_per_customer` FROM `coupons` WHERE `id` = NEW.`coupon_id`)
BEGIN
  SELECT RAISE(ABORT, 'guard:coupon_customer_limit');
END;
--> statement-breakpoint
CREATE TRIGGER `orders_payment_guard` BEFORE UPDATE OF `amount_paid`, `amount_refunded` ON `orders`
WHEN NEW.`amount_paid` > NEW.`total` OR NEW.`amount_refunded` > NEW.`amount_paid`
BEGIN
  SELECT RAISE(ABORT, 'guard:order_overpaid');
END;
--> statement-breakpoint
CREATE TRIGGER `payments_refund_guard` BEFORE UPDATE OF `amount_refunded` ON `payments`
WHEN NEW.`amount_refunded` > NEW.`amount`
BEGIN
  SELECT RAISE(ABORT, 'guard:refund_exceeds_payment');
END;
--> statement-breakpoint
CREATE TRIGGER `order_lines_fulfilment_guard` BEFORE UPDATE OF `quantity_shipped`, `quantity_delivered` ON `order_lines`
WHEN NEW.`quantity_shipped` > NEW.`quantity` OR NEW.`quantity_delivered` > NEW.`quantity_shipped`
BEGIN
  SELECT RAISE(ABORT, 'guard:overshipped');
END;
--> statement-breakpoint
-- The order state machine of docs/api.md (src/modules/orders/order-status.ts holds the same table, and a
-- test checks that the two agree). Setting a status to itself is refused too.
CREATE TRIGGER `orders_status_guard` BEFORE UPDATE OF `status` ON `orders`
WHEN NOT (
  (OLD.`status` = 'pending' AND NEW.`status` IN ('processing', 'cancelled'))
  OR (OLD.`status` = 'processing' AND NEW.`status` IN ('shipped', 'cancelled', 'refunded'))
  OR (OLD.`status` = 'shipped' AND NEW.`status` IN ('completed', 'refunded'))
  OR (OLD.`status` = 'completed' AND NEW.`status` = 'refunded')
)
BEGIN
  SELECT RAISE(ABORT, 'guard:order_transition');
END;
--> statement-breakpoint
-- A cart is checked out once: converting a converted cart aborts the second checkout's batch.
CREATE TRIGGER `carts_checkout_guard` BEFORE UPDATE OF `status` ON `carts`
WHEN OLD.`status` = 'converted'
BEGIN
  SELECT RAISE(ABORT, 'guard:cart_converted');
END;
