CREATE TABLE `login_failures` (
	`email` text NOT NULL,
	`ip` text NOT NULL,
	`failures` integer NOT NULL,
	`first_failure_at` text NOT NULL,
	`locked_until` text,
	PRIMARY KEY(`email`, `ip`)
);
--> statement-breakpoint
DROP TABLE `admin_login_failures`;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `vendor_id` text REFERENCES vendors(id);--> statement-breakpoint
CREATE INDEX `api_keys_owner_idx` ON `api_keys` (`owner_id`);--> statement-breakpoint
-- Keys minted before owners were recorded belong to the user who minted them, or to that key's owner.
UPDATE `api_keys` SET `owner_id` = substr(`created_by`, 6) WHERE `created_by` LIKE 'user:%';--> statement-breakpoint
UPDATE `api_keys` SET `owner_id` = (SELECT p.`owner_id` FROM `api_keys` p WHERE 'key:' || p.`id` = `api_keys`.`created_by`) WHERE `created_by` LIKE 'key:%';
