-- Coupons become code promotions: one source of truth for every code (docs/promotions.md, "Coupons").
-- Each coupon is copied into `promotions` with the same id and `is_coupon` = 1, which /api/coupons now
-- reads and writes with a coupon's answers kept; quotes and orders read codes from `promotions` alone.
ALTER TABLE `promotions` ADD `is_coupon` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- Codes are now unique across coupons and promotions. Until now a coupon won over a promotion of the
-- same code (that promotion could never be entered), so the coupon keeps the code and the promotion's
-- gets the suffix `-PROMOTION` (`-PROMOTION-<id>` should that be taken too).
UPDATE `promotions` SET `code` = `code` || CASE
    WHEN EXISTS (SELECT 1 FROM `promotions` p WHERE p.`code` = `promotions`.`code` || '-PROMOTION')
      OR EXISTS (SELECT 1 FROM `coupons` c WHERE c.`code` = `promotions`.`code` || '-PROMOTION')
    THEN '-PROMOTION-' || `id` ELSE '-PROMOTION' END
WHERE `code` IN (SELECT `code` FROM `coupons`);
--> statement-breakpoint
-- A coupon as the code promotion quotes already priced it as (formerly promotionOfCoupon): its code as
-- name, on the items of its products and categories, combining with automatic promotions and not with
-- other codes. Same value and currency_amounts encodings. `per_customer_limit` is set after the
-- usages are copied: the per-customer guard on promotion_usages must not refuse a customer's past uses
-- of a coupon whose limit was lowered since.
INSERT INTO `promotions` (`id`, `name`, `description`, `code`, `type`, `value`, `currency_amounts`, `target`, `min_subtotal`, `include`,
    `starts_at`, `ends_at`, `usage_limit`, `per_customer_limit`, `times_used`, `priority`, `combines_with_promotions`, `combines_with_codes`,
    `active`, `is_coupon`, `created_at`, `updated_at`)
  SELECT `id`, `code`, `description`, `code`, `type`, `value`, `currency_amounts`, 'items', `min_subtotal`,
    json_object('productIds', json(`product_ids`), 'categoryIds', json(`category_ids`), 'brandIds', json_array()),
    `starts_at`, `ends_at`, `usage_limit`, NULL, `times_used`, 0, 1, 0, `active`, 1, `created_at`, `updated_at`
  FROM `coupons`;
--> statement-breakpoint
INSERT INTO `promotion_usages` (`id`, `promotion_id`, `order_id`, `customer_key`, `created_at`)
  SELECT `id`, `coupon_id`, `order_id`, `customer_key`, `created_at` FROM `coupon_usages`;
--> statement-breakpoint
UPDATE `promotions` SET `per_customer_limit` = (SELECT c.`usage_limit_per_customer` FROM `coupons` c WHERE c.`id` = `promotions`.`id`)
WHERE `is_coupon` = 1;
--> statement-breakpoint
-- A cart's entered code is its promotion's now.
UPDATE `carts` SET `promotion_id` = `coupon_id`, `coupon_id` = NULL WHERE `coupon_id` IS NOT NULL;
--> statement-breakpoint
-- Orders keep `coupon_code` and their applied promotions; `coupon_id` (not in the API) goes NULL, done
-- here rather than left to its ON DELETE SET NULL so it holds whatever the foreign_keys pragma.
UPDATE `orders` SET `coupon_id` = NULL WHERE `coupon_id` IS NOT NULL;
--> statement-breakpoint
-- The old tables are emptied so nothing stale remains, and kept until a later release (dropping
-- `coupons` needs `orders` rebuilt). Their audit triggers go first: emptying them is no deletion to log
-- (src/db/audit-triggers.ts lists both tables as not audited now).
DROP TRIGGER IF EXISTS `audit_coupons_create`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_coupons_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_coupons_delete`;
--> statement-breakpoint
DELETE FROM `coupon_usages`;
--> statement-breakpoint
DELETE FROM `coupons`;
