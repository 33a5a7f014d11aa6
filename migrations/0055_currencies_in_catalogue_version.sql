-- Catalogue reads in a currency (`?currency=EUR`) show prices converted at its rate and digits, or
-- refuse a disabled currency, and a store's default currency decides which prices are its own:
-- a change to either moves catalogue_version (migrations/0007), so kept and cached reads of the
-- catalogue (src/middleware/catalogue-cache.ts) are not served at an old rate.
CREATE TRIGGER `currencies_bump_catalogue_insert` AFTER INSERT ON `currencies`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `currencies_bump_catalogue_update` AFTER UPDATE ON `currencies`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `currencies_bump_catalogue_delete` AFTER DELETE ON `currencies`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `store_settings_bump_catalogue_currency` AFTER UPDATE OF `default_currency` ON `store_settings`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
