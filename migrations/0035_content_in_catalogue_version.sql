-- Content joins the catalogue version (src/middleware/catalogue-cache.ts): pages, menus and banners
-- are kept and served by version like products, in the isolate and in the colo's cache. What the
-- clock changes (a page or banner whose time comes) is bumped by the one-minute cron
-- (src/lib/scheduled-content.ts).
CREATE TRIGGER `pages_bump_catalogue_insert` AFTER INSERT ON `pages`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `pages_bump_catalogue_update` AFTER UPDATE ON `pages`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `pages_bump_catalogue_delete` AFTER DELETE ON `pages`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `menus_bump_catalogue_insert` AFTER INSERT ON `menus`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `menus_bump_catalogue_update` AFTER UPDATE ON `menus`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `menus_bump_catalogue_delete` AFTER DELETE ON `menus`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `banners_bump_catalogue_insert` AFTER INSERT ON `banners`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `banners_bump_catalogue_update` AFTER UPDATE ON `banners`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `banners_bump_catalogue_delete` AFTER DELETE ON `banners`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
