CREATE TABLE `media_unused` (
	`key` text PRIMARY KEY NOT NULL,
	`deletable_after` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `product_media` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`variant_id` text,
	`key` text NOT NULL,
	`url` text NOT NULL,
	`content_type` text NOT NULL,
	`byte_size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`alt` text,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`variant_id`) REFERENCES `product_variants`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `product_media_product_idx` ON `product_media` (`product_id`,`position`);--> statement-breakpoint
CREATE INDEX `product_media_key_idx` ON `product_media` (`key`);--> statement-breakpoint
ALTER TABLE `products` ADD `media` text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
-- products.media: the product's images as one JSON value on its row, by position, so a page of
-- products still reads only its own rows (like products.related, migration 0014). Rebuilt from
-- product_media after every insert, update and delete of one of its rows (at most 50 per product);
-- a product's delete cascades to its media, whose rebuilds then update no row.
-- media_unused: a key no image uses any more may be deleted from R2 at once; an inserted image's key
-- is in use again (which also ends an upload's claim on it).
CREATE TRIGGER `product_media_insert` AFTER INSERT ON `product_media`
BEGIN
  UPDATE `products` SET `media` = (SELECT json_group_array(json_object(
      'id', m.`id`, 'key', m.`key`, 'url', m.`url`, 'contentType', m.`content_type`, 'byteSize', m.`byte_size`, 'width', m.`width`, 'height', m.`height`,
      'alt', m.`alt`, 'position', m.`position`, 'variantId', m.`variant_id`, 'createdAt', m.`created_at`, 'updatedAt', m.`updated_at`) ORDER BY m.`position`, m.`id`)
    FROM `product_media` m WHERE m.`product_id` = NEW.`product_id`) WHERE `id` = NEW.`product_id`;
  DELETE FROM `media_unused` WHERE `key` = NEW.`key`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_media_update` AFTER UPDATE ON `product_media`
BEGIN
  UPDATE `products` SET `media` = (SELECT json_group_array(json_object(
      'id', m.`id`, 'key', m.`key`, 'url', m.`url`, 'contentType', m.`content_type`, 'byteSize', m.`byte_size`, 'width', m.`width`, 'height', m.`height`,
      'alt', m.`alt`, 'position', m.`position`, 'variantId', m.`variant_id`, 'createdAt', m.`created_at`, 'updatedAt', m.`updated_at`) ORDER BY m.`position`, m.`id`)
    FROM `product_media` m WHERE m.`product_id` = NEW.`product_id`) WHERE `id` = NEW.`product_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_media_delete` AFTER DELETE ON `product_media`
BEGIN
  UPDATE `products` SET `media` = (SELECT json_group_array(json_object(
      'id', m.`id`, 'key', m.`key`, 'url', m.`url`, 'contentType', m.`content_type`, 'byteSize', m.`byte_size`, 'width', m.`width`, 'height', m.`height`,
      'alt', m.`alt`, 'position', m.`position`, 'variantId', m.`variant_id`, 'createdAt', m.`created_at`, 'updatedAt', m.`updated_at`) ORDER BY m.`position`, m.`id`)
    FROM `product_media` m WHERE m.`product_id` = OLD.`product_id`) WHERE `id` = OLD.`product_id`;
  INSERT INTO `media_unused` (`key`, `deletable_after`) SELECT OLD.`key`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE NOT EXISTS (SELECT 1 FROM `product_media` WHERE `key` = OLD.`key`)
    ON CONFLICT (`key`) DO NOTHING;
END;
