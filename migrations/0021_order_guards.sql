-- Orders in one D1 round trip (src/modules/orders/quote-inputs.ts, src/lib/write-guards.ts).
-- quote_version changes, to a random 53-bit value like catalogue_version, whenever anything an
-- order's quote reads changes except stock: isolates keep those inputs per version, and the order's
-- batch asserts the version is unchanged. write_guards never holds a row: its trigger aborts the
-- batch with guard:<name> when a guard's `ok` is not 1 and drops the row when it is. RAISE's
-- message must be a literal, hence one line per guard name.
CREATE TABLE `quote_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `write_guards` (
	`name` text NOT NULL,
	`ok` integer
);
--> statement-breakpoint
INSERT INTO `quote_version` (`id`, `version`) VALUES (1, random() & 9007199254740991);
--> statement-breakpoint
CREATE TRIGGER `write_guards_check` BEFORE INSERT ON `write_guards`
BEGIN
  SELECT RAISE(ABORT, 'guard:stale_quote') WHERE NEW.`name` = 'stale_quote' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:stale_credential') WHERE NEW.`name` = 'stale_credential' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'write_guards: unknown guard') WHERE NEW.`ok` IS NOT 1;
  SELECT RAISE(IGNORE);
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_bump_quote_update` AFTER UPDATE OF `id`, `product_id`, `name`, `sku`, `options`, `price` ON `product_variants`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_bump_quote_delete` AFTER DELETE ON `product_variants`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `products_bump_quote_update` AFTER UPDATE OF `id`, `name`, `status`, `vendor_id` ON `products`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `products_bump_quote_delete` AFTER DELETE ON `products`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `store_settings_bump_quote` AFTER UPDATE ON `store_settings`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `currencies_bump_quote_insert` AFTER INSERT ON `currencies`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `currencies_bump_quote_update` AFTER UPDATE ON `currencies`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `currencies_bump_quote_delete` AFTER DELETE ON `currencies`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `tax_rates_bump_quote_insert` AFTER INSERT ON `tax_rates`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `tax_rates_bump_quote_update` AFTER UPDATE ON `tax_rates`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `tax_rates_bump_quote_delete` AFTER DELETE ON `tax_rates`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
