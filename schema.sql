-- The database after every migration in migrations/, as sqlite_master holds it: each table (by
-- name) followed by its indexes and triggers, then the views. Written by `npm run db:schema`;
-- test/d1/schema-sql.test.ts fails when it differs from the migrated database. Read it, never run
-- it: the migrations make the database. Declared triggers: src/db/triggers/.

CREATE TABLE `addresses` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`company` text,
	`line1` text NOT NULL,
	`line2` text,
	`city` text NOT NULL,
	`region` text,
	`postal_code` text,
	`country` text NOT NULL,
	`phone` text,
	`is_default_shipping` integer DEFAULT false NOT NULL,
	`is_default_billing` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `addresses_user_idx` ON `addresses` (`user_id`,`created_at`);

CREATE TRIGGER `audit_addresses_create` AFTER INSERT ON `addresses`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'address', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'userId', json_object('after', NEW.`user_id`),
    'firstName', json_object('after', NEW.`first_name`),
    'lastName', json_object('after', NEW.`last_name`),
    'company', json_object('after', NEW.`company`),
    'line1', json_object('after', NEW.`line1`),
    'line2', json_object('after', NEW.`line2`),
    'city', json_object('after', NEW.`city`),
    'region', json_object('after', NEW.`region`),
    'postalCode', json_object('after', NEW.`postal_code`),
    'country', json_object('after', NEW.`country`),
    'phone', json_object('after', NEW.`phone`),
    'isDefaultShipping', json_object('after', iif(NEW.`is_default_shipping` = 1, json('true'), iif(NEW.`is_default_shipping` = 0, json('false'), NEW.`is_default_shipping`))),
    'isDefaultBilling', json_object('after', iif(NEW.`is_default_billing` = 1, json('true'), iif(NEW.`is_default_billing` = 0, json('false'), NEW.`is_default_billing`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_addresses_delete` AFTER DELETE ON `addresses`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'address', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'userId', json_object('before', OLD.`user_id`),
    'firstName', json_object('before', OLD.`first_name`),
    'lastName', json_object('before', OLD.`last_name`),
    'company', json_object('before', OLD.`company`),
    'line1', json_object('before', OLD.`line1`),
    'line2', json_object('before', OLD.`line2`),
    'city', json_object('before', OLD.`city`),
    'region', json_object('before', OLD.`region`),
    'postalCode', json_object('before', OLD.`postal_code`),
    'country', json_object('before', OLD.`country`),
    'phone', json_object('before', OLD.`phone`),
    'isDefaultShipping', json_object('before', iif(OLD.`is_default_shipping` = 1, json('true'), iif(OLD.`is_default_shipping` = 0, json('false'), OLD.`is_default_shipping`))),
    'isDefaultBilling', json_object('before', iif(OLD.`is_default_billing` = 1, json('true'), iif(OLD.`is_default_billing` = 0, json('false'), OLD.`is_default_billing`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_addresses_update` AFTER UPDATE OF `id`, `user_id`, `first_name`, `last_name`, `company`, `line1`, `line2`, `city`, `region`, `postal_code`, `country`, `phone`, `is_default_shipping`, `is_default_billing` ON `addresses`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`first_name` IS NOT NEW.`first_name` OR OLD.`last_name` IS NOT NEW.`last_name` OR OLD.`company` IS NOT NEW.`company` OR OLD.`line1` IS NOT NEW.`line1` OR OLD.`line2` IS NOT NEW.`line2` OR OLD.`city` IS NOT NEW.`city` OR OLD.`region` IS NOT NEW.`region` OR OLD.`postal_code` IS NOT NEW.`postal_code` OR OLD.`country` IS NOT NEW.`country` OR OLD.`phone` IS NOT NEW.`phone` OR OLD.`is_default_shipping` IS NOT NEW.`is_default_shipping` OR OLD.`is_default_billing` IS NOT NEW.`is_default_billing`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'address', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'userId', iif(OLD.`user_id` IS NOT NEW.`user_id`, json_object('before', OLD.`user_id`, 'after', NEW.`user_id`), NULL),
    'firstName', iif(OLD.`first_name` IS NOT NEW.`first_name`, json_object('before', OLD.`first_name`, 'after', NEW.`first_name`), NULL),
    'lastName', iif(OLD.`last_name` IS NOT NEW.`last_name`, json_object('before', OLD.`last_name`, 'after', NEW.`last_name`), NULL),
    'company', iif(OLD.`company` IS NOT NEW.`company`, json_object('before', OLD.`company`, 'after', NEW.`company`), NULL),
    'line1', iif(OLD.`line1` IS NOT NEW.`line1`, json_object('before', OLD.`line1`, 'after', NEW.`line1`), NULL),
    'line2', iif(OLD.`line2` IS NOT NEW.`line2`, json_object('before', OLD.`line2`, 'after', NEW.`line2`), NULL),
    'city', iif(OLD.`city` IS NOT NEW.`city`, json_object('before', OLD.`city`, 'after', NEW.`city`), NULL),
    'region', iif(OLD.`region` IS NOT NEW.`region`, json_object('before', OLD.`region`, 'after', NEW.`region`), NULL),
    'postalCode', iif(OLD.`postal_code` IS NOT NEW.`postal_code`, json_object('before', OLD.`postal_code`, 'after', NEW.`postal_code`), NULL),
    'country', iif(OLD.`country` IS NOT NEW.`country`, json_object('before', OLD.`country`, 'after', NEW.`country`), NULL),
    'phone', iif(OLD.`phone` IS NOT NEW.`phone`, json_object('before', OLD.`phone`, 'after', NEW.`phone`), NULL),
    'isDefaultShipping', iif(OLD.`is_default_shipping` IS NOT NEW.`is_default_shipping`, json_object('before', iif(OLD.`is_default_shipping` = 1, json('true'), iif(OLD.`is_default_shipping` = 0, json('false'), OLD.`is_default_shipping`)), 'after', iif(NEW.`is_default_shipping` = 1, json('true'), iif(NEW.`is_default_shipping` = 0, json('false'), NEW.`is_default_shipping`))), NULL),
    'isDefaultBilling', iif(OLD.`is_default_billing` IS NOT NEW.`is_default_billing`, json_object('before', iif(OLD.`is_default_billing` = 1, json('true'), iif(OLD.`is_default_billing` = 0, json('false'), OLD.`is_default_billing`)), 'after', iif(NEW.`is_default_billing` = 1, json('true'), iif(NEW.`is_default_billing` = 0, json('false'), NEW.`is_default_billing`))), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `admin_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_version` integer NOT NULL,
	`csrf_token` text NOT NULL,
	`ip` text,
	`user_agent` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `admin_sessions_expires_idx` ON `admin_sessions` (`expires_at`);
CREATE INDEX `admin_sessions_user_idx` ON `admin_sessions` (`user_id`);

CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`role_id` text,
	`permissions` text DEFAULT '[]' NOT NULL,
	`created_by` text,
	`expires_at` text,
	`revoked_at` text,
	`last_used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `owner_id` text, `vendor_id` text REFERENCES vendors(id), `type` text DEFAULT 'secret' NOT NULL, `allowed_origins` text DEFAULT '[]' NOT NULL, `api_version` text DEFAULT '2026-11-20' NOT NULL,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE restrict
);

CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);
CREATE INDEX `api_keys_owner_idx` ON `api_keys` (`owner_id`);

CREATE TRIGGER `audit_api_keys_create` AFTER INSERT ON `api_keys`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'api_key', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'type', json_object('after', NEW.`type`),
    'allowedOrigins', json_object('after', iif(json_valid(NEW.`allowed_origins`), json(NEW.`allowed_origins`), NEW.`allowed_origins`)),
    'prefix', json_object('after', NEW.`prefix`),
    'keyHash', json_object('after', iif(NEW.`key_hash` IS NULL, NULL, '[redacted]')),
    'roleId', json_object('after', NEW.`role_id`),
    'permissions', json_object('after', iif(json_valid(NEW.`permissions`), json(NEW.`permissions`), NEW.`permissions`)),
    'ownerId', json_object('after', NEW.`owner_id`),
    'vendorId', json_object('after', NEW.`vendor_id`),
    'createdBy', json_object('after', NEW.`created_by`),
    'expiresAt', json_object('after', NEW.`expires_at`),
    'revokedAt', json_object('after', NEW.`revoked_at`),
    'apiVersion', json_object('after', NEW.`api_version`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_api_keys_delete` AFTER DELETE ON `api_keys`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'api_key', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'type', json_object('before', OLD.`type`),
    'allowedOrigins', json_object('before', iif(json_valid(OLD.`allowed_origins`), json(OLD.`allowed_origins`), OLD.`allowed_origins`)),
    'prefix', json_object('before', OLD.`prefix`),
    'keyHash', json_object('before', iif(OLD.`key_hash` IS NULL, NULL, '[redacted]')),
    'roleId', json_object('before', OLD.`role_id`),
    'permissions', json_object('before', iif(json_valid(OLD.`permissions`), json(OLD.`permissions`), OLD.`permissions`)),
    'ownerId', json_object('before', OLD.`owner_id`),
    'vendorId', json_object('before', OLD.`vendor_id`),
    'createdBy', json_object('before', OLD.`created_by`),
    'expiresAt', json_object('before', OLD.`expires_at`),
    'revokedAt', json_object('before', OLD.`revoked_at`),
    'apiVersion', json_object('before', OLD.`api_version`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_api_keys_update` AFTER UPDATE OF `id`, `name`, `type`, `allowed_origins`, `prefix`, `key_hash`, `role_id`, `permissions`, `owner_id`, `vendor_id`, `created_by`, `expires_at`, `revoked_at`, `api_version` ON `api_keys`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`type` IS NOT NEW.`type` OR OLD.`allowed_origins` IS NOT NEW.`allowed_origins` OR OLD.`prefix` IS NOT NEW.`prefix` OR OLD.`key_hash` IS NOT NEW.`key_hash` OR OLD.`role_id` IS NOT NEW.`role_id` OR OLD.`permissions` IS NOT NEW.`permissions` OR OLD.`owner_id` IS NOT NEW.`owner_id` OR OLD.`vendor_id` IS NOT NEW.`vendor_id` OR OLD.`created_by` IS NOT NEW.`created_by` OR OLD.`expires_at` IS NOT NEW.`expires_at` OR OLD.`revoked_at` IS NOT NEW.`revoked_at` OR OLD.`api_version` IS NOT NEW.`api_version`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'api_key', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'type', iif(OLD.`type` IS NOT NEW.`type`, json_object('before', OLD.`type`, 'after', NEW.`type`), NULL),
    'allowedOrigins', iif(OLD.`allowed_origins` IS NOT NEW.`allowed_origins`, json_object('before', iif(json_valid(OLD.`allowed_origins`), json(OLD.`allowed_origins`), OLD.`allowed_origins`), 'after', iif(json_valid(NEW.`allowed_origins`), json(NEW.`allowed_origins`), NEW.`allowed_origins`)), NULL),
    'prefix', iif(OLD.`prefix` IS NOT NEW.`prefix`, json_object('before', OLD.`prefix`, 'after', NEW.`prefix`), NULL),
    'keyHash', iif(OLD.`key_hash` IS NOT NEW.`key_hash`, json_object('before', iif(OLD.`key_hash` IS NULL, NULL, '[redacted]'), 'after', iif(NEW.`key_hash` IS NULL, NULL, '[redacted]')), NULL),
    'roleId', iif(OLD.`role_id` IS NOT NEW.`role_id`, json_object('before', OLD.`role_id`, 'after', NEW.`role_id`), NULL),
    'permissions', iif(OLD.`permissions` IS NOT NEW.`permissions`, json_object('before', iif(json_valid(OLD.`permissions`), json(OLD.`permissions`), OLD.`permissions`), 'after', iif(json_valid(NEW.`permissions`), json(NEW.`permissions`), NEW.`permissions`)), NULL),
    'ownerId', iif(OLD.`owner_id` IS NOT NEW.`owner_id`, json_object('before', OLD.`owner_id`, 'after', NEW.`owner_id`), NULL),
    'vendorId', iif(OLD.`vendor_id` IS NOT NEW.`vendor_id`, json_object('before', OLD.`vendor_id`, 'after', NEW.`vendor_id`), NULL),
    'createdBy', iif(OLD.`created_by` IS NOT NEW.`created_by`, json_object('before', OLD.`created_by`, 'after', NEW.`created_by`), NULL),
    'expiresAt', iif(OLD.`expires_at` IS NOT NEW.`expires_at`, json_object('before', OLD.`expires_at`, 'after', NEW.`expires_at`), NULL),
    'revokedAt', iif(OLD.`revoked_at` IS NOT NEW.`revoked_at`, json_object('before', OLD.`revoked_at`, 'after', NEW.`revoked_at`), NULL),
    'apiVersion', iif(OLD.`api_version` IS NOT NEW.`api_version`, json_object('before', OLD.`api_version`, 'after', NEW.`api_version`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `audit_context` (
	`id` integer PRIMARY KEY NOT NULL,
	`actor_kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`actor_label` text,
	`actor_role` text,
	`request_id` text,
	`method` text,
	`path` text,
	`at` text NOT NULL
);

CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`actor_label` text,
	`actor_role` text,
	`resource` text NOT NULL,
	`resource_id` text NOT NULL,
	`action` text NOT NULL,
	`changes` text NOT NULL,
	`request_id` text,
	`method` text,
	`path` text,
	`created_at` text NOT NULL
);

CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_id`,`id`);
CREATE INDEX `audit_log_created_idx` ON `audit_log` (`created_at`,`id`);
CREATE INDEX `audit_log_request_idx` ON `audit_log` (`request_id`);
CREATE INDEX `audit_log_resource_idx` ON `audit_log` (`resource`,`resource_id`,`id`);

CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log`
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be deleted');
END;

CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log`
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be changed');
END;

CREATE TABLE `banners` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`image_url` text NOT NULL,
	`link_url` text,
	`alt_text` text,
	`placement` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`starts_at` text,
	`ends_at` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE INDEX `banners_created_idx` ON `banners` (`created_at`,`id`);
CREATE INDEX `banners_placement_idx` ON `banners` (`placement`,`position`,`id`);

CREATE TRIGGER `audit_banners_create` AFTER INSERT ON `banners`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'banner', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'title', json_object('after', NEW.`title`),
    'imageUrl', json_object('after', NEW.`image_url`),
    'linkUrl', json_object('after', NEW.`link_url`),
    'altText', json_object('after', NEW.`alt_text`),
    'placement', json_object('after', NEW.`placement`),
    'position', json_object('after', NEW.`position`),
    'startsAt', json_object('after', NEW.`starts_at`),
    'endsAt', json_object('after', NEW.`ends_at`),
    'active', json_object('after', iif(NEW.`active` = 1, json('true'), iif(NEW.`active` = 0, json('false'), NEW.`active`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_banners_delete` AFTER DELETE ON `banners`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'banner', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'title', json_object('before', OLD.`title`),
    'imageUrl', json_object('before', OLD.`image_url`),
    'linkUrl', json_object('before', OLD.`link_url`),
    'altText', json_object('before', OLD.`alt_text`),
    'placement', json_object('before', OLD.`placement`),
    'position', json_object('before', OLD.`position`),
    'startsAt', json_object('before', OLD.`starts_at`),
    'endsAt', json_object('before', OLD.`ends_at`),
    'active', json_object('before', iif(OLD.`active` = 1, json('true'), iif(OLD.`active` = 0, json('false'), OLD.`active`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_banners_update` AFTER UPDATE OF `id`, `title`, `image_url`, `link_url`, `alt_text`, `placement`, `position`, `starts_at`, `ends_at`, `active` ON `banners`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`title` IS NOT NEW.`title` OR OLD.`image_url` IS NOT NEW.`image_url` OR OLD.`link_url` IS NOT NEW.`link_url` OR OLD.`alt_text` IS NOT NEW.`alt_text` OR OLD.`placement` IS NOT NEW.`placement` OR OLD.`position` IS NOT NEW.`position` OR OLD.`starts_at` IS NOT NEW.`starts_at` OR OLD.`ends_at` IS NOT NEW.`ends_at` OR OLD.`active` IS NOT NEW.`active`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'banner', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'title', iif(OLD.`title` IS NOT NEW.`title`, json_object('before', OLD.`title`, 'after', NEW.`title`), NULL),
    'imageUrl', iif(OLD.`image_url` IS NOT NEW.`image_url`, json_object('before', OLD.`image_url`, 'after', NEW.`image_url`), NULL),
    'linkUrl', iif(OLD.`link_url` IS NOT NEW.`link_url`, json_object('before', OLD.`link_url`, 'after', NEW.`link_url`), NULL),
    'altText', iif(OLD.`alt_text` IS NOT NEW.`alt_text`, json_object('before', OLD.`alt_text`, 'after', NEW.`alt_text`), NULL),
    'placement', iif(OLD.`placement` IS NOT NEW.`placement`, json_object('before', OLD.`placement`, 'after', NEW.`placement`), NULL),
    'position', iif(OLD.`position` IS NOT NEW.`position`, json_object('before', OLD.`position`, 'after', NEW.`position`), NULL),
    'startsAt', iif(OLD.`starts_at` IS NOT NEW.`starts_at`, json_object('before', OLD.`starts_at`, 'after', NEW.`starts_at`), NULL),
    'endsAt', iif(OLD.`ends_at` IS NOT NEW.`ends_at`, json_object('before', OLD.`ends_at`, 'after', NEW.`ends_at`), NULL),
    'active', iif(OLD.`active` IS NOT NEW.`active`, json_object('before', iif(OLD.`active` = 1, json('true'), iif(OLD.`active` = 0, json('false'), OLD.`active`)), 'after', iif(NEW.`active` = 1, json('true'), iif(NEW.`active` = 0, json('false'), NEW.`active`))), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `banners_bump_catalogue_delete` AFTER DELETE ON `banners`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `banners_bump_catalogue_insert` AFTER INSERT ON `banners`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `banners_bump_catalogue_update` AFTER UPDATE ON `banners`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `brands` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text,
	`logo_url` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE INDEX `brands_name_idx` ON `brands` (`name`);
CREATE UNIQUE INDEX `brands_slug_unique` ON `brands` (`slug`);

CREATE TRIGGER `audit_brands_create` AFTER INSERT ON `brands`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'brand', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'slug', json_object('after', NEW.`slug`),
    'description', json_object('after', NEW.`description`),
    'logoUrl', json_object('after', NEW.`logo_url`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_brands_delete` AFTER DELETE ON `brands`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'brand', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'slug', json_object('before', OLD.`slug`),
    'description', json_object('before', OLD.`description`),
    'logoUrl', json_object('before', OLD.`logo_url`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_brands_update` AFTER UPDATE OF `id`, `name`, `slug`, `description`, `logo_url` ON `brands`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`slug` IS NOT NEW.`slug` OR OLD.`description` IS NOT NEW.`description` OR OLD.`logo_url` IS NOT NEW.`logo_url`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'brand', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'slug', iif(OLD.`slug` IS NOT NEW.`slug`, json_object('before', OLD.`slug`, 'after', NEW.`slug`), NULL),
    'description', iif(OLD.`description` IS NOT NEW.`description`, json_object('before', OLD.`description`, 'after', NEW.`description`), NULL),
    'logoUrl', iif(OLD.`logo_url` IS NOT NEW.`logo_url`, json_object('before', OLD.`logo_url`, 'after', NEW.`logo_url`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `brands_bump_catalogue_delete` AFTER DELETE ON `brands`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `brands_bump_catalogue_insert` AFTER INSERT ON `brands`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `brands_bump_catalogue_update` AFTER UPDATE ON `brands`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `brands_related` AFTER UPDATE OF `name`, `slug` ON `brands`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) SELECT `id` FROM `products` WHERE `brand_id` = NEW.`id`;
END;

CREATE TABLE `cart_gift_cards` (
	`cart_id` text NOT NULL,
	`gift_card_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`cart_id`, `gift_card_id`),
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`gift_card_id`) REFERENCES `gift_cards`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE TABLE `cart_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`cart_id` text NOT NULL,
	`product_id` text NOT NULL,
	`variant_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`variant_id`) REFERENCES `product_variants`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE UNIQUE INDEX `cart_lines_variant_idx` ON `cart_lines` (`cart_id`,`variant_id`);

CREATE TRIGGER `audit_cart_lines_create` AFTER INSERT ON `cart_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'cart_line', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'cartId', json_object('after', NEW.`cart_id`),
    'productId', json_object('after', NEW.`product_id`),
    'variantId', json_object('after', NEW.`variant_id`),
    'quantity', json_object('after', NEW.`quantity`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_cart_lines_delete` AFTER DELETE ON `cart_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'cart_line', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'cartId', json_object('before', OLD.`cart_id`),
    'productId', json_object('before', OLD.`product_id`),
    'variantId', json_object('before', OLD.`variant_id`),
    'quantity', json_object('before', OLD.`quantity`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_cart_lines_update` AFTER UPDATE OF `id`, `cart_id`, `product_id`, `variant_id`, `quantity` ON `cart_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`cart_id` IS NOT NEW.`cart_id` OR OLD.`product_id` IS NOT NEW.`product_id` OR OLD.`variant_id` IS NOT NEW.`variant_id` OR OLD.`quantity` IS NOT NEW.`quantity`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'cart_line', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'cartId', iif(OLD.`cart_id` IS NOT NEW.`cart_id`, json_object('before', OLD.`cart_id`, 'after', NEW.`cart_id`), NULL),
    'productId', iif(OLD.`product_id` IS NOT NEW.`product_id`, json_object('before', OLD.`product_id`, 'after', NEW.`product_id`), NULL),
    'variantId', iif(OLD.`variant_id` IS NOT NEW.`variant_id`, json_object('before', OLD.`variant_id`, 'after', NEW.`variant_id`), NULL),
    'quantity', iif(OLD.`quantity` IS NOT NEW.`quantity`, json_object('before', OLD.`quantity`, 'after', NEW.`quantity`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `cart_recoveries` (
	`id` text PRIMARY KEY NOT NULL,
	`cart_id` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `cart_recoveries_cart_idx` ON `cart_recoveries` (`cart_id`);

CREATE TABLE `carts` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text,
	`customer_id` text,
	`email` text,
	`currency` text NOT NULL,
	`coupon_id` text,
	`shipping_address` text,
	`billing_address` text,
	`status` text DEFAULT 'active' NOT NULL,
	`order_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `abandoned_at` text, `shipping_method_id` text, `promotion_id` text,
	FOREIGN KEY (`customer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`coupon_id`) REFERENCES `coupons`(`id`) ON UPDATE no action ON DELETE set null
);

CREATE INDEX `carts_customer_idx` ON `carts` (`customer_id`,`status`);
CREATE INDEX `carts_status_updated_idx` ON `carts` (`status`,`updated_at`);
CREATE UNIQUE INDEX `carts_token_hash_unique` ON `carts` (`token_hash`);

CREATE TRIGGER `audit_carts_create` AFTER INSERT ON `carts`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'cart', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'tokenHash', json_object('after', iif(NEW.`token_hash` IS NULL, NULL, '[redacted]')),
    'customerId', json_object('after', NEW.`customer_id`),
    'email', json_object('after', NEW.`email`),
    'currency', json_object('after', NEW.`currency`),
    'couponId', json_object('after', NEW.`coupon_id`),
    'promotionId', json_object('after', NEW.`promotion_id`),
    'shippingAddress', json_object('after', iif(json_valid(NEW.`shipping_address`), json(NEW.`shipping_address`), NEW.`shipping_address`)),
    'billingAddress', json_object('after', iif(json_valid(NEW.`billing_address`), json(NEW.`billing_address`), NEW.`billing_address`)),
    'shippingMethodId', json_object('after', NEW.`shipping_method_id`),
    'status', json_object('after', NEW.`status`),
    'orderId', json_object('after', NEW.`order_id`),
    'abandonedAt', json_object('after', NEW.`abandoned_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_carts_delete` AFTER DELETE ON `carts`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'cart', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'tokenHash', json_object('before', iif(OLD.`token_hash` IS NULL, NULL, '[redacted]')),
    'customerId', json_object('before', OLD.`customer_id`),
    'email', json_object('before', OLD.`email`),
    'currency', json_object('before', OLD.`currency`),
    'couponId', json_object('before', OLD.`coupon_id`),
    'promotionId', json_object('before', OLD.`promotion_id`),
    'shippingAddress', json_object('before', iif(json_valid(OLD.`shipping_address`), json(OLD.`shipping_address`), OLD.`shipping_address`)),
    'billingAddress', json_object('before', iif(json_valid(OLD.`billing_address`), json(OLD.`billing_address`), OLD.`billing_address`)),
    'shippingMethodId', json_object('before', OLD.`shipping_method_id`),
    'status', json_object('before', OLD.`status`),
    'orderId', json_object('before', OLD.`order_id`),
    'abandonedAt', json_object('before', OLD.`abandoned_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_carts_update` AFTER UPDATE OF `id`, `token_hash`, `customer_id`, `email`, `currency`, `coupon_id`, `promotion_id`, `shipping_address`, `billing_address`, `shipping_method_id`, `status`, `order_id`, `abandoned_at` ON `carts`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`token_hash` IS NOT NEW.`token_hash` OR OLD.`customer_id` IS NOT NEW.`customer_id` OR OLD.`email` IS NOT NEW.`email` OR OLD.`currency` IS NOT NEW.`currency` OR OLD.`coupon_id` IS NOT NEW.`coupon_id` OR OLD.`promotion_id` IS NOT NEW.`promotion_id` OR OLD.`shipping_address` IS NOT NEW.`shipping_address` OR OLD.`billing_address` IS NOT NEW.`billing_address` OR OLD.`shipping_method_id` IS NOT NEW.`shipping_method_id` OR OLD.`status` IS NOT NEW.`status` OR OLD.`order_id` IS NOT NEW.`order_id` OR OLD.`abandoned_at` IS NOT NEW.`abandoned_at`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'cart', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'tokenHash', iif(OLD.`token_hash` IS NOT NEW.`token_hash`, json_object('before', iif(OLD.`token_hash` IS NULL, NULL, '[redacted]'), 'after', iif(NEW.`token_hash` IS NULL, NULL, '[redacted]')), NULL),
    'customerId', iif(OLD.`customer_id` IS NOT NEW.`customer_id`, json_object('before', OLD.`customer_id`, 'after', NEW.`customer_id`), NULL),
    'email', iif(OLD.`email` IS NOT NEW.`email`, json_object('before', OLD.`email`, 'after', NEW.`email`), NULL),
    'currency', iif(OLD.`currency` IS NOT NEW.`currency`, json_object('before', OLD.`currency`, 'after', NEW.`currency`), NULL),
    'couponId', iif(OLD.`coupon_id` IS NOT NEW.`coupon_id`, json_object('before', OLD.`coupon_id`, 'after', NEW.`coupon_id`), NULL),
    'promotionId', iif(OLD.`promotion_id` IS NOT NEW.`promotion_id`, json_object('before', OLD.`promotion_id`, 'after', NEW.`promotion_id`), NULL),
    'shippingAddress', iif(OLD.`shipping_address` IS NOT NEW.`shipping_address`, json_object('before', iif(json_valid(OLD.`shipping_address`), json(OLD.`shipping_address`), OLD.`shipping_address`), 'after', iif(json_valid(NEW.`shipping_address`), json(NEW.`shipping_address`), NEW.`shipping_address`)), NULL),
    'billingAddress', iif(OLD.`billing_address` IS NOT NEW.`billing_address`, json_object('before', iif(json_valid(OLD.`billing_address`), json(OLD.`billing_address`), OLD.`billing_address`), 'after', iif(json_valid(NEW.`billing_address`), json(NEW.`billing_address`), NEW.`billing_address`)), NULL),
    'shippingMethodId', iif(OLD.`shipping_method_id` IS NOT NEW.`shipping_method_id`, json_object('before', OLD.`shipping_method_id`, 'after', NEW.`shipping_method_id`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'orderId', iif(OLD.`order_id` IS NOT NEW.`order_id`, json_object('before', OLD.`order_id`, 'after', NEW.`order_id`), NULL),
    'abandonedAt', iif(OLD.`abandoned_at` IS NOT NEW.`abandoned_at`, json_object('before', OLD.`abandoned_at`, 'after', NEW.`abandoned_at`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `carts_checkout_guard` BEFORE UPDATE OF `status` ON `carts`
WHEN OLD.`status` = 'converted'
BEGIN
  SELECT RAISE(ABORT, 'guard:cart_converted');
END;

CREATE TABLE `catalogue_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);

CREATE TABLE `categories` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text,
	`parent_id` text,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`parent_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE restrict
);

CREATE INDEX `categories_created_idx` ON `categories` (`created_at`);
CREATE INDEX `categories_parent_idx` ON `categories` (`parent_id`);
CREATE UNIQUE INDEX `categories_slug_unique` ON `categories` (`slug`);

CREATE TRIGGER `audit_categories_create` AFTER INSERT ON `categories`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'category', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'slug', json_object('after', NEW.`slug`),
    'description', json_object('after', NEW.`description`),
    'parentId', json_object('after', NEW.`parent_id`),
    'position', json_object('after', NEW.`position`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_categories_delete` AFTER DELETE ON `categories`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'category', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'slug', json_object('before', OLD.`slug`),
    'description', json_object('before', OLD.`description`),
    'parentId', json_object('before', OLD.`parent_id`),
    'position', json_object('before', OLD.`position`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_categories_update` AFTER UPDATE OF `id`, `name`, `slug`, `description`, `parent_id`, `position` ON `categories`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`slug` IS NOT NEW.`slug` OR OLD.`description` IS NOT NEW.`description` OR OLD.`parent_id` IS NOT NEW.`parent_id` OR OLD.`position` IS NOT NEW.`position`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'category', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'slug', iif(OLD.`slug` IS NOT NEW.`slug`, json_object('before', OLD.`slug`, 'after', NEW.`slug`), NULL),
    'description', iif(OLD.`description` IS NOT NEW.`description`, json_object('before', OLD.`description`, 'after', NEW.`description`), NULL),
    'parentId', iif(OLD.`parent_id` IS NOT NEW.`parent_id`, json_object('before', OLD.`parent_id`, 'after', NEW.`parent_id`), NULL),
    'position', iif(OLD.`position` IS NOT NEW.`position`, json_object('before', OLD.`position`, 'after', NEW.`position`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `categories_bump_catalogue_delete` AFTER DELETE ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `categories_bump_catalogue_insert` AFTER INSERT ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `categories_bump_catalogue_update` AFTER UPDATE ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `categories_bump_quote_parent` AFTER UPDATE OF `parent_id` ON `categories`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `categories_related` AFTER UPDATE OF `name`, `slug` ON `categories`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) SELECT `product_id` FROM `product_categories` WHERE `category_id` = NEW.`id`;
END;

CREATE TRIGGER `categories_tree_delete` AFTER DELETE ON `categories`
BEGIN
  DELETE FROM `category_tree` WHERE `ancestor_id` = OLD.`id` OR `descendant_id` = OLD.`id`;
  DELETE FROM `category_product_counts` WHERE `category_id` = OLD.`id`;
END;

CREATE TRIGGER `categories_tree_delete_links` BEFORE DELETE ON `categories`
BEGIN
  DELETE FROM `product_categories` WHERE `category_id` = OLD.`id`;
END;

CREATE TRIGGER `categories_tree_insert` AFTER INSERT ON `categories`
BEGIN
  INSERT INTO `category_tree` (`ancestor_id`, `descendant_id`) VALUES (NEW.`id`, NEW.`id`);
  INSERT INTO `category_tree` (`ancestor_id`, `descendant_id`)
    SELECT `ancestor_id`, NEW.`id` FROM `category_tree` WHERE `descendant_id` = NEW.`parent_id`;
END;

CREATE TRIGGER `categories_tree_move` AFTER UPDATE OF `parent_id` ON `categories`
WHEN OLD.`parent_id` IS NOT NEW.`parent_id`
BEGIN
  DELETE FROM `category_tree`
    WHERE `descendant_id` IN (SELECT `descendant_id` FROM `category_tree` WHERE `ancestor_id` = NEW.`id`)
      AND `ancestor_id` NOT IN (SELECT `descendant_id` FROM `category_tree` WHERE `ancestor_id` = NEW.`id`);
  INSERT INTO `category_tree` (`ancestor_id`, `descendant_id`)
    SELECT a.`ancestor_id`, s.`descendant_id` FROM `category_tree` a, `category_tree` s
    WHERE a.`descendant_id` = NEW.`parent_id` AND s.`ancestor_id` = NEW.`id`;
  DELETE FROM `category_product_counts`;
  INSERT INTO `category_product_counts` (`category_id`, `status`, `count`)
    SELECT t.`ancestor_id`, p.`status`, count(DISTINCT p.`id`)
    FROM `category_tree` t JOIN `product_categories` pc ON pc.`category_id` = t.`descendant_id` JOIN `products` p ON p.`id` = pc.`product_id`
    GROUP BY t.`ancestor_id`, p.`status`;
END;

CREATE TABLE `category_listing` (
	`category_id` text NOT NULL,
	`product_id` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`price` integer NOT NULL,
	`sku` text,
	PRIMARY KEY(`product_id`, `category_id`)
);

CREATE INDEX `category_listing_created_idx` ON `category_listing` (`category_id`,`status`,`created_at`,`product_id`);
CREATE INDEX `category_listing_id_idx` ON `category_listing` (`category_id`,`status`,`product_id`);
CREATE INDEX `category_listing_name_idx` ON `category_listing` (`category_id`,`status`,`name`,`product_id`);
CREATE INDEX `category_listing_price_idx` ON `category_listing` (`category_id`,`status`,`price`,`product_id`);
CREATE INDEX `category_listing_sku_idx` ON `category_listing` (`category_id`,`status`,`sku`,`product_id`);
CREATE INDEX `category_listing_updated_idx` ON `category_listing` (`category_id`,`status`,`updated_at`,`product_id`);

CREATE TABLE `category_product_counts` (
	`category_id` text NOT NULL,
	`status` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`category_id`, `status`)
);

CREATE TABLE `category_tree` (
	`ancestor_id` text NOT NULL,
	`descendant_id` text NOT NULL,
	PRIMARY KEY(`ancestor_id`, `descendant_id`)
);

CREATE INDEX `category_tree_descendant_idx` ON `category_tree` (`descendant_id`,`ancestor_id`);

CREATE TRIGGER `category_listing_tree_delete` AFTER DELETE ON `category_tree`
BEGIN
  DELETE FROM `category_listing`
    WHERE `category_id` = OLD.`ancestor_id`
      AND `product_id` IN (SELECT `product_id` FROM `product_categories` WHERE `category_id` = OLD.`descendant_id`)
      AND NOT EXISTS (
        SELECT 1 FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id`
        WHERE pc.`product_id` = `category_listing`.`product_id` AND t.`ancestor_id` = OLD.`ancestor_id`
      );
END;

CREATE TRIGGER `category_listing_tree_insert` AFTER INSERT ON `category_tree`
BEGIN
  INSERT INTO `category_listing` (`category_id`, `product_id`, `status`, `created_at`, `updated_at`, `name`, `price`, `sku`)
    SELECT NEW.`ancestor_id`, p.`id`, p.`status`, p.`created_at`, p.`updated_at`, p.`name`, p.`price`, p.`sku`
    FROM `product_categories` pc JOIN `products` p ON p.`id` = pc.`product_id`
    WHERE pc.`category_id` = NEW.`descendant_id`
    ON CONFLICT DO NOTHING;
END;

CREATE TABLE `coupon_usages` (
	`id` text PRIMARY KEY NOT NULL,
	`coupon_id` text NOT NULL,
	`order_id` text NOT NULL,
	`customer_key` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`coupon_id`) REFERENCES `coupons`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `coupon_usages_customer_idx` ON `coupon_usages` (`coupon_id`,`customer_key`);

CREATE TRIGGER `coupon_usages_customer_guard` BEFORE INSERT ON `coupon_usages`
WHEN (SELECT `usage_limit_per_customer` FROM `coupons` WHERE `id` = NEW.`coupon_id`) IS NOT NULL
  AND (SELECT count(*) FROM `coupon_usages` WHERE `coupon_id` = NEW.`coupon_id` AND `customer_key` = NEW.`customer_key`)
    >= (SELECT `usage_limit_per_customer` FROM `coupons` WHERE `id` = NEW.`coupon_id`)
BEGIN
  SELECT RAISE(ABORT, 'guard:coupon_customer_limit');
END;

CREATE TABLE `coupons` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`description` text,
	`type` text NOT NULL,
	`value` text NOT NULL,
	`min_subtotal` integer,
	`starts_at` text,
	`ends_at` text,
	`usage_limit` integer,
	`usage_limit_per_customer` integer,
	`times_used` integer DEFAULT 0 NOT NULL,
	`product_ids` text DEFAULT '[]' NOT NULL,
	`category_ids` text DEFAULT '[]' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
, `currency_amounts` text DEFAULT '{}' NOT NULL);

CREATE UNIQUE INDEX `coupons_code_unique` ON `coupons` (`code`);
CREATE INDEX `coupons_created_idx` ON `coupons` (`created_at`,`id`);

CREATE TRIGGER `coupons_usage_guard` BEFORE UPDATE OF `times_used` ON `coupons`
WHEN NEW.`usage_limit` IS NOT NULL AND NEW.`times_used` > NEW.`usage_limit`
BEGIN
  SELECT RAISE(ABORT, 'guard:coupon_usage_limit');
END;

CREATE TABLE `currencies` (
	`code` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`symbol` text NOT NULL,
	`minor_units` integer DEFAULT 2 NOT NULL,
	`exchange_rate` text DEFAULT '1' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
, `prices_include_tax` integer);

CREATE TRIGGER `audit_currencies_create` AFTER INSERT ON `currencies`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'currency', NEW.`code`, 'create',
  coalesce(json_object(
    'code', json_object('after', NEW.`code`),
    'name', json_object('after', NEW.`name`),
    'symbol', json_object('after', NEW.`symbol`),
    'minorUnits', json_object('after', NEW.`minor_units`),
    'exchangeRate', json_object('after', NEW.`exchange_rate`),
    'pricesIncludeTax', json_object('after', iif(NEW.`prices_include_tax` = 1, json('true'), iif(NEW.`prices_include_tax` = 0, json('false'), NEW.`prices_include_tax`))),
    'enabled', json_object('after', iif(NEW.`enabled` = 1, json('true'), iif(NEW.`enabled` = 0, json('false'), NEW.`enabled`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_currencies_delete` AFTER DELETE ON `currencies`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'currency', OLD.`code`, 'delete',
  coalesce(json_object(
    'code', json_object('before', OLD.`code`),
    'name', json_object('before', OLD.`name`),
    'symbol', json_object('before', OLD.`symbol`),
    'minorUnits', json_object('before', OLD.`minor_units`),
    'exchangeRate', json_object('before', OLD.`exchange_rate`),
    'pricesIncludeTax', json_object('before', iif(OLD.`prices_include_tax` = 1, json('true'), iif(OLD.`prices_include_tax` = 0, json('false'), OLD.`prices_include_tax`))),
    'enabled', json_object('before', iif(OLD.`enabled` = 1, json('true'), iif(OLD.`enabled` = 0, json('false'), OLD.`enabled`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_currencies_update` AFTER UPDATE OF `code`, `name`, `symbol`, `minor_units`, `exchange_rate`, `prices_include_tax`, `enabled` ON `currencies`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`code` IS NOT NEW.`code` OR OLD.`name` IS NOT NEW.`name` OR OLD.`symbol` IS NOT NEW.`symbol` OR OLD.`minor_units` IS NOT NEW.`minor_units` OR OLD.`exchange_rate` IS NOT NEW.`exchange_rate` OR OLD.`prices_include_tax` IS NOT NEW.`prices_include_tax` OR OLD.`enabled` IS NOT NEW.`enabled`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'currency', NEW.`code`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'code', iif(OLD.`code` IS NOT NEW.`code`, json_object('before', OLD.`code`, 'after', NEW.`code`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'symbol', iif(OLD.`symbol` IS NOT NEW.`symbol`, json_object('before', OLD.`symbol`, 'after', NEW.`symbol`), NULL),
    'minorUnits', iif(OLD.`minor_units` IS NOT NEW.`minor_units`, json_object('before', OLD.`minor_units`, 'after', NEW.`minor_units`), NULL),
    'exchangeRate', iif(OLD.`exchange_rate` IS NOT NEW.`exchange_rate`, json_object('before', OLD.`exchange_rate`, 'after', NEW.`exchange_rate`), NULL),
    'pricesIncludeTax', iif(OLD.`prices_include_tax` IS NOT NEW.`prices_include_tax`, json_object('before', iif(OLD.`prices_include_tax` = 1, json('true'), iif(OLD.`prices_include_tax` = 0, json('false'), OLD.`prices_include_tax`)), 'after', iif(NEW.`prices_include_tax` = 1, json('true'), iif(NEW.`prices_include_tax` = 0, json('false'), NEW.`prices_include_tax`))), NULL),
    'enabled', iif(OLD.`enabled` IS NOT NEW.`enabled`, json_object('before', iif(OLD.`enabled` = 1, json('true'), iif(OLD.`enabled` = 0, json('false'), OLD.`enabled`)), 'after', iif(NEW.`enabled` = 1, json('true'), iif(NEW.`enabled` = 0, json('false'), NEW.`enabled`))), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `currencies_bump_catalogue_delete` AFTER DELETE ON `currencies`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `currencies_bump_catalogue_insert` AFTER INSERT ON `currencies`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `currencies_bump_catalogue_update` AFTER UPDATE ON `currencies`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `currencies_bump_quote_delete` AFTER DELETE ON `currencies`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `currencies_bump_quote_insert` AFTER INSERT ON `currencies`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `currencies_bump_quote_update` AFTER UPDATE ON `currencies`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `customer_group_members` (
	`group_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`group_id`, `customer_id`),
	FOREIGN KEY (`group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `customer_group_members_customer_idx` ON `customer_group_members` (`customer_id`,`group_id`);

CREATE TRIGGER `audit_customer_group_members_create` AFTER INSERT ON `customer_group_members`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'customer_group_member', NEW.`group_id` || '/' || NEW.`customer_id`, 'create',
  coalesce(json_object(
    'groupId', json_object('after', NEW.`group_id`),
    'customerId', json_object('after', NEW.`customer_id`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_customer_group_members_delete` AFTER DELETE ON `customer_group_members`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'customer_group_member', OLD.`group_id` || '/' || OLD.`customer_id`, 'delete',
  coalesce(json_object(
    'groupId', json_object('before', OLD.`group_id`),
    'customerId', json_object('before', OLD.`customer_id`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_customer_group_members_update` AFTER UPDATE OF `group_id`, `customer_id` ON `customer_group_members`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`group_id` IS NOT NEW.`group_id` OR OLD.`customer_id` IS NOT NEW.`customer_id`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'customer_group_member', NEW.`group_id` || '/' || NEW.`customer_id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'groupId', iif(OLD.`group_id` IS NOT NEW.`group_id`, json_object('before', OLD.`group_id`, 'after', NEW.`group_id`), NULL),
    'customerId', iif(OLD.`customer_id` IS NOT NEW.`customer_id`, json_object('before', OLD.`customer_id`, 'after', NEW.`customer_id`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `customer_group_members_bump_versions_delete` AFTER DELETE ON `customer_group_members`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `customer_group_members_bump_versions_insert` AFTER INSERT ON `customer_group_members`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `customer_group_members_bump_versions_update` AFTER UPDATE ON `customer_group_members`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `customer_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE UNIQUE INDEX `customer_groups_name_unique` ON `customer_groups` (`name`);

CREATE TRIGGER `audit_customer_groups_create` AFTER INSERT ON `customer_groups`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'customer_group', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'description', json_object('after', NEW.`description`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_customer_groups_delete` AFTER DELETE ON `customer_groups`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'customer_group', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'description', json_object('before', OLD.`description`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_customer_groups_update` AFTER UPDATE OF `id`, `name`, `description` ON `customer_groups`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`description` IS NOT NEW.`description`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'customer_group', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'description', iif(OLD.`description` IS NOT NEW.`description`, json_object('before', OLD.`description`, 'after', NEW.`description`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `event_positions` (
	`id` integer PRIMARY KEY NOT NULL,
	`position` integer DEFAULT 0 NOT NULL
);

CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`published_at` text
, `position` integer, `resource_id` text, `sequence` integer);

CREATE INDEX `events_created_idx` ON `events` (`created_at`);
CREATE INDEX `events_inventory_low_variant_idx` ON `events` (json_extract(`data`, '$.variantId'), `created_at`) WHERE `type` = 'inventory.low';
CREATE UNIQUE INDEX `events_position_idx` ON `events` (`position`);
CREATE INDEX `events_resource_idx` ON `events` (`resource_id`,`sequence`);
CREATE INDEX `events_unpublished_idx` ON `events` (`published_at`,`created_at`);

CREATE TRIGGER `events_position` AFTER INSERT ON `events`
BEGIN
  UPDATE `event_positions` SET `position` = `position` + 1 WHERE `id` = 1;
  UPDATE `events` SET
    `position` = (SELECT `position` FROM `event_positions` WHERE `id` = 1),
    `resource_id` = CASE
      WHEN NEW.`type` LIKE 'order.%' OR NEW.`type` LIKE 'payment.%' OR NEW.`type` LIKE 'refund.%' OR NEW.`type` LIKE 'shipment.%' OR NEW.`type` LIKE 'return.%' THEN json_extract(NEW.`data`, '$.orderId')
      WHEN NEW.`type` LIKE 'product.%' OR NEW.`type` = 'inventory.low' THEN json_extract(NEW.`data`, '$.productId')
      WHEN NEW.`type` LIKE 'customer.%' OR NEW.`type` LIKE 'store\_credit.%' ESCAPE '\' THEN json_extract(NEW.`data`, '$.customerId')
      WHEN NEW.`type` LIKE 'page.%' THEN json_extract(NEW.`data`, '$.pageId')
      WHEN NEW.`type` LIKE 'cart.%' THEN json_extract(NEW.`data`, '$.cartId')
      WHEN NEW.`type` LIKE 'gift\_card.%' ESCAPE '\' THEN json_extract(NEW.`data`, '$.giftCardId')
    END
  WHERE `id` = NEW.`id`;
  UPDATE `events` SET `sequence` = (SELECT coalesce(max(e.`sequence`), 0) + 1 FROM `events` AS e WHERE e.`resource_id` = `events`.`resource_id`)
  WHERE `id` = NEW.`id` AND `resource_id` IS NOT NULL;
END;

CREATE TABLE `gift_card_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`gift_card_id` text NOT NULL,
	`amount` integer NOT NULL,
	`balance_after` integer DEFAULT 0 NOT NULL,
	`kind` text NOT NULL,
	`order_id` text,
	`payment_id` text,
	`actor` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`gift_card_id`) REFERENCES `gift_cards`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE set null
);

CREATE INDEX `gift_card_transactions_card_idx` ON `gift_card_transactions` (`gift_card_id`,`created_at`);

CREATE TRIGGER `gift_card_transactions_apply` AFTER INSERT ON `gift_card_transactions`
BEGIN
  UPDATE `gift_cards` SET `balance` = `balance` + NEW.`amount`, `updated_at` = NEW.`created_at` WHERE `id` = NEW.`gift_card_id`;
  SELECT RAISE(ABORT, 'guard:insufficient_gift_card_balance') WHERE (SELECT `balance` FROM `gift_cards` WHERE `id` = NEW.`gift_card_id`) < 0;
  UPDATE `gift_card_transactions` SET `balance_after` = (SELECT `balance` FROM `gift_cards` WHERE `id` = NEW.`gift_card_id`) WHERE `id` = NEW.`id`;
END;

CREATE TABLE `gift_cards` (
	`id` text PRIMARY KEY NOT NULL,
	`code_hash` text NOT NULL,
	`last4` text NOT NULL,
	`currency` text NOT NULL,
	`initial_amount` integer NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`expires_at` text,
	`recipient_email` text,
	`recipient_name` text,
	`message` text,
	`customer_id` text,
	`order_id` text,
	`order_line_id` text,
	`issued_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE UNIQUE INDEX `gift_cards_code_hash_idx` ON `gift_cards` (`code_hash`);
CREATE INDEX `gift_cards_created_idx` ON `gift_cards` (`created_at`,`id`);
CREATE INDEX `gift_cards_order_idx` ON `gift_cards` (`order_id`);

CREATE TRIGGER `audit_gift_cards_create` AFTER INSERT ON `gift_cards`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'gift_card', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'codeHash', json_object('after', iif(NEW.`code_hash` IS NULL, NULL, '[redacted]')),
    'last4', json_object('after', NEW.`last4`),
    'currency', json_object('after', NEW.`currency`),
    'initialAmount', json_object('after', NEW.`initial_amount`),
    'balance', json_object('after', NEW.`balance`),
    'status', json_object('after', NEW.`status`),
    'expiresAt', json_object('after', NEW.`expires_at`),
    'recipientEmail', json_object('after', NEW.`recipient_email`),
    'recipientName', json_object('after', NEW.`recipient_name`),
    'message', json_object('after', NEW.`message`),
    'customerId', json_object('after', NEW.`customer_id`),
    'orderId', json_object('after', NEW.`order_id`),
    'orderLineId', json_object('after', NEW.`order_line_id`),
    'issuedBy', json_object('after', NEW.`issued_by`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_gift_cards_delete` AFTER DELETE ON `gift_cards`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'gift_card', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'codeHash', json_object('before', iif(OLD.`code_hash` IS NULL, NULL, '[redacted]')),
    'last4', json_object('before', OLD.`last4`),
    'currency', json_object('before', OLD.`currency`),
    'initialAmount', json_object('before', OLD.`initial_amount`),
    'balance', json_object('before', OLD.`balance`),
    'status', json_object('before', OLD.`status`),
    'expiresAt', json_object('before', OLD.`expires_at`),
    'recipientEmail', json_object('before', OLD.`recipient_email`),
    'recipientName', json_object('before', OLD.`recipient_name`),
    'message', json_object('before', OLD.`message`),
    'customerId', json_object('before', OLD.`customer_id`),
    'orderId', json_object('before', OLD.`order_id`),
    'orderLineId', json_object('before', OLD.`order_line_id`),
    'issuedBy', json_object('before', OLD.`issued_by`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_gift_cards_update` AFTER UPDATE OF `id`, `code_hash`, `last4`, `currency`, `initial_amount`, `balance`, `status`, `expires_at`, `recipient_email`, `recipient_name`, `message`, `customer_id`, `order_id`, `order_line_id`, `issued_by` ON `gift_cards`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`code_hash` IS NOT NEW.`code_hash` OR OLD.`last4` IS NOT NEW.`last4` OR OLD.`currency` IS NOT NEW.`currency` OR OLD.`initial_amount` IS NOT NEW.`initial_amount` OR OLD.`balance` IS NOT NEW.`balance` OR OLD.`status` IS NOT NEW.`status` OR OLD.`expires_at` IS NOT NEW.`expires_at` OR OLD.`recipient_email` IS NOT NEW.`recipient_email` OR OLD.`recipient_name` IS NOT NEW.`recipient_name` OR OLD.`message` IS NOT NEW.`message` OR OLD.`customer_id` IS NOT NEW.`customer_id` OR OLD.`order_id` IS NOT NEW.`order_id` OR OLD.`order_line_id` IS NOT NEW.`order_line_id` OR OLD.`issued_by` IS NOT NEW.`issued_by`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'gift_card', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'codeHash', iif(OLD.`code_hash` IS NOT NEW.`code_hash`, json_object('before', iif(OLD.`code_hash` IS NULL, NULL, '[redacted]'), 'after', iif(NEW.`code_hash` IS NULL, NULL, '[redacted]')), NULL),
    'last4', iif(OLD.`last4` IS NOT NEW.`last4`, json_object('before', OLD.`last4`, 'after', NEW.`last4`), NULL),
    'currency', iif(OLD.`currency` IS NOT NEW.`currency`, json_object('before', OLD.`currency`, 'after', NEW.`currency`), NULL),
    'initialAmount', iif(OLD.`initial_amount` IS NOT NEW.`initial_amount`, json_object('before', OLD.`initial_amount`, 'after', NEW.`initial_amount`), NULL),
    'balance', iif(OLD.`balance` IS NOT NEW.`balance`, json_object('before', OLD.`balance`, 'after', NEW.`balance`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'expiresAt', iif(OLD.`expires_at` IS NOT NEW.`expires_at`, json_object('before', OLD.`expires_at`, 'after', NEW.`expires_at`), NULL),
    'recipientEmail', iif(OLD.`recipient_email` IS NOT NEW.`recipient_email`, json_object('before', OLD.`recipient_email`, 'after', NEW.`recipient_email`), NULL),
    'recipientName', iif(OLD.`recipient_name` IS NOT NEW.`recipient_name`, json_object('before', OLD.`recipient_name`, 'after', NEW.`recipient_name`), NULL),
    'message', iif(OLD.`message` IS NOT NEW.`message`, json_object('before', OLD.`message`, 'after', NEW.`message`), NULL),
    'customerId', iif(OLD.`customer_id` IS NOT NEW.`customer_id`, json_object('before', OLD.`customer_id`, 'after', NEW.`customer_id`), NULL),
    'orderId', iif(OLD.`order_id` IS NOT NEW.`order_id`, json_object('before', OLD.`order_id`, 'after', NEW.`order_id`), NULL),
    'orderLineId', iif(OLD.`order_line_id` IS NOT NEW.`order_line_id`, json_object('before', OLD.`order_line_id`, 'after', NEW.`order_line_id`), NULL),
    'issuedBy', iif(OLD.`issued_by` IS NOT NEW.`issued_by`, json_object('before', OLD.`issued_by`, 'after', NEW.`issued_by`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `idempotency_keys` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`request_hash` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`scope`, `key`)
);

CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);

CREATE TABLE `import_chunks` (
	`import_id` text NOT NULL,
	`n` integer NOT NULL,
	`plans` text NOT NULL,
	PRIMARY KEY(`import_id`, `n`)
);

CREATE TABLE `import_failures` (
	`import_id` text NOT NULL,
	`line` integer NOT NULL,
	`column` text NOT NULL,
	`reason` text NOT NULL
);

CREATE INDEX `import_failures_import_idx` ON `import_failures` (`import_id`,`line`);

CREATE TABLE `imports` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`format` text NOT NULL,
	`actor` text NOT NULL,
	`vendor_id` text,
	`rows` integer NOT NULL,
	`products` integer NOT NULL,
	`chunks` integer NOT NULL,
	`chunks_done` integer DEFAULT 0 NOT NULL,
	`rows_done` integer DEFAULT 0 NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`updated` integer DEFAULT 0 NOT NULL,
	`unchanged` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`completed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
, `reason` text);

CREATE INDEX `imports_created_idx` ON `imports` (`created_at`);

CREATE TABLE `inventory_adjustments` (
	`id` text PRIMARY KEY NOT NULL,
	`variant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`delta` integer NOT NULL,
	`reason` text NOT NULL,
	`note` text,
	`order_id` text,
	`actor` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE INDEX `inventory_adjustments_variant_idx` ON `inventory_adjustments` (`variant_id`,`created_at`);

CREATE TRIGGER `inventory_adjustments_apply` AFTER INSERT ON `inventory_adjustments`
BEGIN
  UPDATE `product_variants` SET `stock` = `stock` + NEW.`delta`, `updated_at` = NEW.`created_at`
    WHERE `id` = NEW.`variant_id`;
  INSERT INTO `events` (`id`, `type`, `data`, `created_at`, `published_at`)
    SELECT 'evt' || substr(NEW.`id`, instr(NEW.`id`, '_')), 'inventory.low',
           json_object('productId', v.`product_id`, 'variantId', v.`id`, 'sku', v.`sku`, 'quantity', v.`stock`,
                       'threshold', coalesce(v.`low_stock_threshold`, p.`low_stock_threshold`, s.`low_stock_threshold`)),
           NEW.`created_at`, NULL
      FROM `product_variants` v
      JOIN `products` p ON p.`id` = v.`product_id`
      JOIN `store_settings` s ON s.`id` = 'store'
     WHERE NEW.`delta` < 0
       AND v.`id` = NEW.`variant_id`
       AND v.`stock` <= coalesce(v.`low_stock_threshold`, p.`low_stock_threshold`, s.`low_stock_threshold`)
       AND v.`stock` - NEW.`delta` > coalesce(v.`low_stock_threshold`, p.`low_stock_threshold`, s.`low_stock_threshold`)
       AND NOT EXISTS (
         SELECT 1 FROM `events` e
          WHERE e.`type` = 'inventory.low'
            AND json_extract(e.`data`, '$.variantId') = NEW.`variant_id`
            AND e.`created_at` > strftime('%Y-%m-%dT%H:%M:%fZ', NEW.`created_at`, '-1 hour'));
END;

CREATE TABLE `login_failures` (
	`email` text NOT NULL,
	`ip` text NOT NULL,
	`failures` integer NOT NULL,
	`first_failure_at` text NOT NULL,
	`locked_until` text,
	PRIMARY KEY(`email`, `ip`)
);

CREATE TABLE `media_unused` (
	`key` text PRIMARY KEY NOT NULL,
	`deletable_after` text NOT NULL
);

CREATE TABLE `menus` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`handle` text NOT NULL,
	`items` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE UNIQUE INDEX `menus_handle_unique` ON `menus` (`handle`);
CREATE INDEX `menus_name_idx` ON `menus` (`name`,`id`);

CREATE TRIGGER `audit_menus_create` AFTER INSERT ON `menus`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'menu', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'handle', json_object('after', NEW.`handle`),
    'items', json_object('after', iif(json_valid(NEW.`items`), json(NEW.`items`), NEW.`items`))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_menus_delete` AFTER DELETE ON `menus`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'menu', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'handle', json_object('before', OLD.`handle`),
    'items', json_object('before', iif(json_valid(OLD.`items`), json(OLD.`items`), OLD.`items`))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_menus_update` AFTER UPDATE OF `id`, `name`, `handle`, `items` ON `menus`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`handle` IS NOT NEW.`handle` OR OLD.`items` IS NOT NEW.`items`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'menu', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'handle', iif(OLD.`handle` IS NOT NEW.`handle`, json_object('before', OLD.`handle`, 'after', NEW.`handle`), NULL),
    'items', iif(OLD.`items` IS NOT NEW.`items`, json_object('before', iif(json_valid(OLD.`items`), json(OLD.`items`), OLD.`items`), 'after', iif(json_valid(NEW.`items`), json(NEW.`items`), NEW.`items`)), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `menus_bump_catalogue_delete` AFTER DELETE ON `menus`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `menus_bump_catalogue_insert` AFTER INSERT ON `menus`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `menus_bump_catalogue_update` AFTER UPDATE ON `menus`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `notification_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`channel` text NOT NULL,
	`event` text NOT NULL,
	`audience` text NOT NULL,
	`category` text DEFAULT 'transactional' NOT NULL,
	`description` text,
	`subject` text,
	`body` text NOT NULL,
	`body_html` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE INDEX `notification_templates_event_idx` ON `notification_templates` (`event`);
CREATE UNIQUE INDEX `notification_templates_key_channel_idx` ON `notification_templates` (`key`,`channel`);

CREATE TRIGGER `audit_notification_templates_create` AFTER INSERT ON `notification_templates`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'notification_template', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'key', json_object('after', NEW.`key`),
    'channel', json_object('after', NEW.`channel`),
    'event', json_object('after', NEW.`event`),
    'audience', json_object('after', NEW.`audience`),
    'category', json_object('after', NEW.`category`),
    'description', json_object('after', NEW.`description`),
    'subject', json_object('after', NEW.`subject`),
    'body', json_object('after', NEW.`body`),
    'bodyHtml', json_object('after', NEW.`body_html`),
    'active', json_object('after', iif(NEW.`active` = 1, json('true'), iif(NEW.`active` = 0, json('false'), NEW.`active`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_notification_templates_delete` AFTER DELETE ON `notification_templates`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'notification_template', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'key', json_object('before', OLD.`key`),
    'channel', json_object('before', OLD.`channel`),
    'event', json_object('before', OLD.`event`),
    'audience', json_object('before', OLD.`audience`),
    'category', json_object('before', OLD.`category`),
    'description', json_object('before', OLD.`description`),
    'subject', json_object('before', OLD.`subject`),
    'body', json_object('before', OLD.`body`),
    'bodyHtml', json_object('before', OLD.`body_html`),
    'active', json_object('before', iif(OLD.`active` = 1, json('true'), iif(OLD.`active` = 0, json('false'), OLD.`active`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_notification_templates_update` AFTER UPDATE OF `id`, `key`, `channel`, `event`, `audience`, `category`, `description`, `subject`, `body`, `body_html`, `active` ON `notification_templates`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`key` IS NOT NEW.`key` OR OLD.`channel` IS NOT NEW.`channel` OR OLD.`event` IS NOT NEW.`event` OR OLD.`audience` IS NOT NEW.`audience` OR OLD.`category` IS NOT NEW.`category` OR OLD.`description` IS NOT NEW.`description` OR OLD.`subject` IS NOT NEW.`subject` OR OLD.`body` IS NOT NEW.`body` OR OLD.`body_html` IS NOT NEW.`body_html` OR OLD.`active` IS NOT NEW.`active`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'notification_template', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'key', iif(OLD.`key` IS NOT NEW.`key`, json_object('before', OLD.`key`, 'after', NEW.`key`), NULL),
    'channel', iif(OLD.`channel` IS NOT NEW.`channel`, json_object('before', OLD.`channel`, 'after', NEW.`channel`), NULL),
    'event', iif(OLD.`event` IS NOT NEW.`event`, json_object('before', OLD.`event`, 'after', NEW.`event`), NULL),
    'audience', iif(OLD.`audience` IS NOT NEW.`audience`, json_object('before', OLD.`audience`, 'after', NEW.`audience`), NULL),
    'category', iif(OLD.`category` IS NOT NEW.`category`, json_object('before', OLD.`category`, 'after', NEW.`category`), NULL),
    'description', iif(OLD.`description` IS NOT NEW.`description`, json_object('before', OLD.`description`, 'after', NEW.`description`), NULL),
    'subject', iif(OLD.`subject` IS NOT NEW.`subject`, json_object('before', OLD.`subject`, 'after', NEW.`subject`), NULL),
    'body', iif(OLD.`body` IS NOT NEW.`body`, json_object('before', OLD.`body`, 'after', NEW.`body`), NULL),
    'bodyHtml', iif(OLD.`body_html` IS NOT NEW.`body_html`, json_object('before', OLD.`body_html`, 'after', NEW.`body_html`), NULL),
    'active', iif(OLD.`active` IS NOT NEW.`active`, json_object('before', iif(OLD.`active` = 1, json('true'), iif(OLD.`active` = 0, json('false'), OLD.`active`)), 'after', iif(NEW.`active` = 1, json('true'), iif(NEW.`active` = 0, json('false'), NEW.`active`))), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`recipient` text NOT NULL,
	`template` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
, `body_html` text, `category` text DEFAULT 'transactional' NOT NULL, `event_id` text, `recipient_user_id` text, `dedupe_key` text, `provider` text, `provider_message_id` text, `attempts` integer DEFAULT 0 NOT NULL, `last_error` text, `last_attempt_at` text, `sent_at` text);

CREATE INDEX `notifications_created_idx` ON `notifications` (`created_at`,`id`);
CREATE UNIQUE INDEX `notifications_dedupe_idx` ON `notifications` (`dedupe_key`);
CREATE INDEX `notifications_recipient_idx` ON `notifications` (`recipient`,`created_at`);
CREATE INDEX `notifications_status_created_idx` ON `notifications` (`status`,`created_at`,`id`);

CREATE TABLE `order_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`product_id` text NOT NULL,
	`variant_id` text NOT NULL,
	`vendor_id` text,
	`name` text NOT NULL,
	`sku` text,
	`options` text DEFAULT '{}' NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price` integer NOT NULL,
	`subtotal` integer NOT NULL,
	`discount` integer DEFAULT 0 NOT NULL,
	`tax` integer DEFAULT 0 NOT NULL,
	`total` integer NOT NULL,
	`quantity_shipped` integer DEFAULT 0 NOT NULL,
	`quantity_delivered` integer DEFAULT 0 NOT NULL, `tax_rate` text, `tax_class` text, `quantity_returned` integer DEFAULT 0 NOT NULL, `quantity_refunded` integer DEFAULT 0 NOT NULL, `promotions` text DEFAULT '[]' NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `order_lines_order_idx` ON `order_lines` (`order_id`);
CREATE INDEX `order_lines_vendor_idx` ON `order_lines` (`vendor_id`,`order_id`);

CREATE TRIGGER `audit_order_lines_create` AFTER INSERT ON `order_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'order_line', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'orderId', json_object('after', NEW.`order_id`),
    'productId', json_object('after', NEW.`product_id`),
    'variantId', json_object('after', NEW.`variant_id`),
    'vendorId', json_object('after', NEW.`vendor_id`),
    'name', json_object('after', NEW.`name`),
    'sku', json_object('after', NEW.`sku`),
    'options', json_object('after', iif(json_valid(NEW.`options`), json(NEW.`options`), NEW.`options`)),
    'quantity', json_object('after', NEW.`quantity`),
    'unitPrice', json_object('after', NEW.`unit_price`),
    'subtotal', json_object('after', NEW.`subtotal`),
    'discount', json_object('after', NEW.`discount`),
    'promotions', json_object('after', iif(json_valid(NEW.`promotions`), json(NEW.`promotions`), NEW.`promotions`)),
    'tax', json_object('after', NEW.`tax`),
    'taxRate', json_object('after', NEW.`tax_rate`),
    'taxClass', json_object('after', NEW.`tax_class`),
    'total', json_object('after', NEW.`total`),
    'quantityShipped', json_object('after', NEW.`quantity_shipped`),
    'quantityDelivered', json_object('after', NEW.`quantity_delivered`),
    'quantityReturned', json_object('after', NEW.`quantity_returned`),
    'quantityRefunded', json_object('after', NEW.`quantity_refunded`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_order_lines_delete` AFTER DELETE ON `order_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'order_line', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'orderId', json_object('before', OLD.`order_id`),
    'productId', json_object('before', OLD.`product_id`),
    'variantId', json_object('before', OLD.`variant_id`),
    'vendorId', json_object('before', OLD.`vendor_id`),
    'name', json_object('before', OLD.`name`),
    'sku', json_object('before', OLD.`sku`),
    'options', json_object('before', iif(json_valid(OLD.`options`), json(OLD.`options`), OLD.`options`)),
    'quantity', json_object('before', OLD.`quantity`),
    'unitPrice', json_object('before', OLD.`unit_price`),
    'subtotal', json_object('before', OLD.`subtotal`),
    'discount', json_object('before', OLD.`discount`),
    'promotions', json_object('before', iif(json_valid(OLD.`promotions`), json(OLD.`promotions`), OLD.`promotions`)),
    'tax', json_object('before', OLD.`tax`),
    'taxRate', json_object('before', OLD.`tax_rate`),
    'taxClass', json_object('before', OLD.`tax_class`),
    'total', json_object('before', OLD.`total`),
    'quantityShipped', json_object('before', OLD.`quantity_shipped`),
    'quantityDelivered', json_object('before', OLD.`quantity_delivered`),
    'quantityReturned', json_object('before', OLD.`quantity_returned`),
    'quantityRefunded', json_object('before', OLD.`quantity_refunded`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_order_lines_update` AFTER UPDATE OF `id`, `order_id`, `product_id`, `variant_id`, `vendor_id`, `name`, `sku`, `options`, `quantity`, `unit_price`, `subtotal`, `discount`, `promotions`, `tax`, `tax_rate`, `tax_class`, `total`, `quantity_shipped`, `quantity_delivered`, `quantity_returned`, `quantity_refunded` ON `order_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`order_id` IS NOT NEW.`order_id` OR OLD.`product_id` IS NOT NEW.`product_id` OR OLD.`variant_id` IS NOT NEW.`variant_id` OR OLD.`vendor_id` IS NOT NEW.`vendor_id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`sku` IS NOT NEW.`sku` OR OLD.`options` IS NOT NEW.`options` OR OLD.`quantity` IS NOT NEW.`quantity` OR OLD.`unit_price` IS NOT NEW.`unit_price` OR OLD.`subtotal` IS NOT NEW.`subtotal` OR OLD.`discount` IS NOT NEW.`discount` OR OLD.`promotions` IS NOT NEW.`promotions` OR OLD.`tax` IS NOT NEW.`tax` OR OLD.`tax_rate` IS NOT NEW.`tax_rate` OR OLD.`tax_class` IS NOT NEW.`tax_class` OR OLD.`total` IS NOT NEW.`total` OR OLD.`quantity_shipped` IS NOT NEW.`quantity_shipped` OR OLD.`quantity_delivered` IS NOT NEW.`quantity_delivered` OR OLD.`quantity_returned` IS NOT NEW.`quantity_returned` OR OLD.`quantity_refunded` IS NOT NEW.`quantity_refunded`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'order_line', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'orderId', iif(OLD.`order_id` IS NOT NEW.`order_id`, json_object('before', OLD.`order_id`, 'after', NEW.`order_id`), NULL),
    'productId', iif(OLD.`product_id` IS NOT NEW.`product_id`, json_object('before', OLD.`product_id`, 'after', NEW.`product_id`), NULL),
    'variantId', iif(OLD.`variant_id` IS NOT NEW.`variant_id`, json_object('before', OLD.`variant_id`, 'after', NEW.`variant_id`), NULL),
    'vendorId', iif(OLD.`vendor_id` IS NOT NEW.`vendor_id`, json_object('before', OLD.`vendor_id`, 'after', NEW.`vendor_id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'sku', iif(OLD.`sku` IS NOT NEW.`sku`, json_object('before', OLD.`sku`, 'after', NEW.`sku`), NULL),
    'options', iif(OLD.`options` IS NOT NEW.`options`, json_object('before', iif(json_valid(OLD.`options`), json(OLD.`options`), OLD.`options`), 'after', iif(json_valid(NEW.`options`), json(NEW.`options`), NEW.`options`)), NULL),
    'quantity', iif(OLD.`quantity` IS NOT NEW.`quantity`, json_object('before', OLD.`quantity`, 'after', NEW.`quantity`), NULL),
    'unitPrice', iif(OLD.`unit_price` IS NOT NEW.`unit_price`, json_object('before', OLD.`unit_price`, 'after', NEW.`unit_price`), NULL),
    'subtotal', iif(OLD.`subtotal` IS NOT NEW.`subtotal`, json_object('before', OLD.`subtotal`, 'after', NEW.`subtotal`), NULL),
    'discount', iif(OLD.`discount` IS NOT NEW.`discount`, json_object('before', OLD.`discount`, 'after', NEW.`discount`), NULL),
    'promotions', iif(OLD.`promotions` IS NOT NEW.`promotions`, json_object('before', iif(json_valid(OLD.`promotions`), json(OLD.`promotions`), OLD.`promotions`), 'after', iif(json_valid(NEW.`promotions`), json(NEW.`promotions`), NEW.`promotions`)), NULL),
    'tax', iif(OLD.`tax` IS NOT NEW.`tax`, json_object('before', OLD.`tax`, 'after', NEW.`tax`), NULL),
    'taxRate', iif(OLD.`tax_rate` IS NOT NEW.`tax_rate`, json_object('before', OLD.`tax_rate`, 'after', NEW.`tax_rate`), NULL),
    'taxClass', iif(OLD.`tax_class` IS NOT NEW.`tax_class`, json_object('before', OLD.`tax_class`, 'after', NEW.`tax_class`), NULL),
    'total', iif(OLD.`total` IS NOT NEW.`total`, json_object('before', OLD.`total`, 'after', NEW.`total`), NULL),
    'quantityShipped', iif(OLD.`quantity_shipped` IS NOT NEW.`quantity_shipped`, json_object('before', OLD.`quantity_shipped`, 'after', NEW.`quantity_shipped`), NULL),
    'quantityDelivered', iif(OLD.`quantity_delivered` IS NOT NEW.`quantity_delivered`, json_object('before', OLD.`quantity_delivered`, 'after', NEW.`quantity_delivered`), NULL),
    'quantityReturned', iif(OLD.`quantity_returned` IS NOT NEW.`quantity_returned`, json_object('before', OLD.`quantity_returned`, 'after', NEW.`quantity_returned`), NULL),
    'quantityRefunded', iif(OLD.`quantity_refunded` IS NOT NEW.`quantity_refunded`, json_object('before', OLD.`quantity_refunded`, 'after', NEW.`quantity_refunded`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `order_lines_fulfilment_guard` BEFORE UPDATE OF `quantity_shipped`, `quantity_delivered` ON `order_lines`
WHEN NEW.`quantity_shipped` > NEW.`quantity` OR NEW.`quantity_delivered` > NEW.`quantity_shipped`
BEGIN
  SELECT RAISE(ABORT, 'guard:overshipped');
END;

CREATE TRIGGER `order_lines_refunded_limit` BEFORE UPDATE OF `quantity_refunded` ON `order_lines`
WHEN NEW.`quantity_refunded` > NEW.`quantity` OR NEW.`quantity_refunded` < 0
BEGIN
  SELECT RAISE(ABORT, 'guard:overrefunded_line');
END;

CREATE TRIGGER `order_lines_returned_limit` BEFORE UPDATE OF `quantity_returned` ON `order_lines`
WHEN NEW.`quantity_returned` > NEW.`quantity` OR NEW.`quantity_returned` < 0
BEGIN
  SELECT RAISE(ABORT, 'guard:overreturned');
END;

CREATE TRIGGER `sales_line_placed` AFTER INSERT ON `order_lines`
BEGIN
  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `units`)
  SELECT substr(`o`.`created_at`, 1, 10), `o`.`currency`, `o`.`minor_units`, NEW.`quantity` FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'
  ON CONFLICT (`currency`, `day`) DO UPDATE SET `units` = `units` + `excluded`.`units`;
  INSERT INTO `product_sales_days` (`day`, `currency`, `product_id`, `name`, `units`, `revenue`, `lines`)
  SELECT substr(`o`.`created_at`, 1, 10), `o`.`currency`, NEW.`product_id`, NEW.`name`, NEW.`quantity`, NEW.`total` - NEW.`tax`, 1 FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'
  ON CONFLICT (`currency`, `day`, `product_id`) DO UPDATE SET `name` = `excluded`.`name`, `units` = `units` + `excluded`.`units`, `revenue` = `revenue` + `excluded`.`revenue`, `lines` = `lines` + 1;
END;

CREATE TRIGGER `sales_line_placed_month` AFTER INSERT ON `order_lines`
BEGIN
  INSERT INTO `product_sales_months` (`month`, `currency`, `product_id`, `name`, `units`, `revenue`, `lines`)
  SELECT substr(`o`.`created_at`, 1, 7), `o`.`currency`, NEW.`product_id`, NEW.`name`, NEW.`quantity`, NEW.`total` - NEW.`tax`, 1 FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'
  ON CONFLICT (`currency`, `month`, `product_id`) DO UPDATE SET `name` = `excluded`.`name`, `units` = `units` + `excluded`.`units`, `revenue` = `revenue` + `excluded`.`revenue`, `lines` = `lines` + 1;
END;

CREATE TABLE `order_status_history` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`actor` text NOT NULL,
	`note` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `order_status_history_order_idx` ON `order_status_history` (`order_id`,`created_at`);

CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text,
	`email` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`currency` text NOT NULL,
	`minor_units` integer NOT NULL,
	`subtotal` integer NOT NULL,
	`discount_total` integer DEFAULT 0 NOT NULL,
	`shipping_total` integer DEFAULT 0 NOT NULL,
	`tax_total` integer DEFAULT 0 NOT NULL,
	`total` integer NOT NULL,
	`amount_paid` integer DEFAULT 0 NOT NULL,
	`amount_refunded` integer DEFAULT 0 NOT NULL,
	`coupon_id` text,
	`coupon_code` text,
	`shipping_address` text,
	`billing_address` text,
	`notes` text,
	`cart_id` text,
	`cancelled_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `number` integer, `first_order` integer DEFAULT false NOT NULL, `shipping_method_id` text, `shipping_method_name` text, `shipping_method_carrier` text, `prices_include_tax` integer DEFAULT false NOT NULL, `shipping_tax` integer DEFAULT 0 NOT NULL, `shipping_tax_rate` text, `promotions` text DEFAULT '[]' NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`coupon_id`) REFERENCES `coupons`(`id`) ON UPDATE no action ON DELETE set null
);

CREATE INDEX `orders_created_idx` ON `orders` (`created_at`,`id`);
CREATE INDEX `orders_customer_created_idx` ON `orders` (`customer_id`,`created_at`);
CREATE INDEX `orders_email_idx` ON `orders` (`email`);
CREATE UNIQUE INDEX `orders_number_unique` ON `orders` (`number`);
CREATE INDEX `orders_status_created_idx` ON `orders` (`status`,`created_at`,`id`);

CREATE TRIGGER `audit_orders_create` AFTER INSERT ON `orders`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'order', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'number', json_object('after', NEW.`number`),
    'firstOrder', json_object('after', iif(NEW.`first_order` = 1, json('true'), iif(NEW.`first_order` = 0, json('false'), NEW.`first_order`))),
    'customerId', json_object('after', NEW.`customer_id`),
    'email', json_object('after', NEW.`email`),
    'status', json_object('after', NEW.`status`),
    'currency', json_object('after', NEW.`currency`),
    'minorUnits', json_object('after', NEW.`minor_units`),
    'subtotal', json_object('after', NEW.`subtotal`),
    'discountTotal', json_object('after', NEW.`discount_total`),
    'shippingTotal', json_object('after', NEW.`shipping_total`),
    'taxTotal', json_object('after', NEW.`tax_total`),
    'pricesIncludeTax', json_object('after', iif(NEW.`prices_include_tax` = 1, json('true'), iif(NEW.`prices_include_tax` = 0, json('false'), NEW.`prices_include_tax`))),
    'shippingTax', json_object('after', NEW.`shipping_tax`),
    'shippingTaxRate', json_object('after', NEW.`shipping_tax_rate`),
    'total', json_object('after', NEW.`total`),
    'amountPaid', json_object('after', NEW.`amount_paid`),
    'amountRefunded', json_object('after', NEW.`amount_refunded`),
    'couponId', json_object('after', NEW.`coupon_id`),
    'couponCode', json_object('after', NEW.`coupon_code`),
    'promotions', json_object('after', iif(json_valid(NEW.`promotions`), json(NEW.`promotions`), NEW.`promotions`)),
    'shippingMethodId', json_object('after', NEW.`shipping_method_id`),
    'shippingMethodName', json_object('after', NEW.`shipping_method_name`),
    'shippingMethodCarrier', json_object('after', NEW.`shipping_method_carrier`),
    'shippingAddress', json_object('after', iif(json_valid(NEW.`shipping_address`), json(NEW.`shipping_address`), NEW.`shipping_address`)),
    'billingAddress', json_object('after', iif(json_valid(NEW.`billing_address`), json(NEW.`billing_address`), NEW.`billing_address`)),
    'notes', json_object('after', NEW.`notes`),
    'cartId', json_object('after', NEW.`cart_id`),
    'cancelledAt', json_object('after', NEW.`cancelled_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_orders_delete` AFTER DELETE ON `orders`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'order', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'number', json_object('before', OLD.`number`),
    'firstOrder', json_object('before', iif(OLD.`first_order` = 1, json('true'), iif(OLD.`first_order` = 0, json('false'), OLD.`first_order`))),
    'customerId', json_object('before', OLD.`customer_id`),
    'email', json_object('before', OLD.`email`),
    'status', json_object('before', OLD.`status`),
    'currency', json_object('before', OLD.`currency`),
    'minorUnits', json_object('before', OLD.`minor_units`),
    'subtotal', json_object('before', OLD.`subtotal`),
    'discountTotal', json_object('before', OLD.`discount_total`),
    'shippingTotal', json_object('before', OLD.`shipping_total`),
    'taxTotal', json_object('before', OLD.`tax_total`),
    'pricesIncludeTax', json_object('before', iif(OLD.`prices_include_tax` = 1, json('true'), iif(OLD.`prices_include_tax` = 0, json('false'), OLD.`prices_include_tax`))),
    'shippingTax', json_object('before', OLD.`shipping_tax`),
    'shippingTaxRate', json_object('before', OLD.`shipping_tax_rate`),
    'total', json_object('before', OLD.`total`),
    'amountPaid', json_object('before', OLD.`amount_paid`),
    'amountRefunded', json_object('before', OLD.`amount_refunded`),
    'couponId', json_object('before', OLD.`coupon_id`),
    'couponCode', json_object('before', OLD.`coupon_code`),
    'promotions', json_object('before', iif(json_valid(OLD.`promotions`), json(OLD.`promotions`), OLD.`promotions`)),
    'shippingMethodId', json_object('before', OLD.`shipping_method_id`),
    'shippingMethodName', json_object('before', OLD.`shipping_method_name`),
    'shippingMethodCarrier', json_object('before', OLD.`shipping_method_carrier`),
    'shippingAddress', json_object('before', iif(json_valid(OLD.`shipping_address`), json(OLD.`shipping_address`), OLD.`shipping_address`)),
    'billingAddress', json_object('before', iif(json_valid(OLD.`billing_address`), json(OLD.`billing_address`), OLD.`billing_address`)),
    'notes', json_object('before', OLD.`notes`),
    'cartId', json_object('before', OLD.`cart_id`),
    'cancelledAt', json_object('before', OLD.`cancelled_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_orders_update` AFTER UPDATE OF `id`, `number`, `first_order`, `customer_id`, `email`, `status`, `currency`, `minor_units`, `subtotal`, `discount_total`, `shipping_total`, `tax_total`, `prices_include_tax`, `shipping_tax`, `shipping_tax_rate`, `total`, `amount_paid`, `amount_refunded`, `coupon_id`, `coupon_code`, `promotions`, `shipping_method_id`, `shipping_method_name`, `shipping_method_carrier`, `shipping_address`, `billing_address`, `notes`, `cart_id`, `cancelled_at` ON `orders`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`number` IS NOT NEW.`number` OR OLD.`first_order` IS NOT NEW.`first_order` OR OLD.`customer_id` IS NOT NEW.`customer_id` OR OLD.`email` IS NOT NEW.`email` OR OLD.`status` IS NOT NEW.`status` OR OLD.`currency` IS NOT NEW.`currency` OR OLD.`minor_units` IS NOT NEW.`minor_units` OR OLD.`subtotal` IS NOT NEW.`subtotal` OR OLD.`discount_total` IS NOT NEW.`discount_total` OR OLD.`shipping_total` IS NOT NEW.`shipping_total` OR OLD.`tax_total` IS NOT NEW.`tax_total` OR OLD.`prices_include_tax` IS NOT NEW.`prices_include_tax` OR OLD.`shipping_tax` IS NOT NEW.`shipping_tax` OR OLD.`shipping_tax_rate` IS NOT NEW.`shipping_tax_rate` OR OLD.`total` IS NOT NEW.`total` OR OLD.`amount_paid` IS NOT NEW.`amount_paid` OR OLD.`amount_refunded` IS NOT NEW.`amount_refunded` OR OLD.`coupon_id` IS NOT NEW.`coupon_id` OR OLD.`coupon_code` IS NOT NEW.`coupon_code` OR OLD.`promotions` IS NOT NEW.`promotions` OR OLD.`shipping_method_id` IS NOT NEW.`shipping_method_id` OR OLD.`shipping_method_name` IS NOT NEW.`shipping_method_name` OR OLD.`shipping_method_carrier` IS NOT NEW.`shipping_method_carrier` OR OLD.`shipping_address` IS NOT NEW.`shipping_address` OR OLD.`billing_address` IS NOT NEW.`billing_address` OR OLD.`notes` IS NOT NEW.`notes` OR OLD.`cart_id` IS NOT NEW.`cart_id` OR OLD.`cancelled_at` IS NOT NEW.`cancelled_at`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'order', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'number', iif(OLD.`number` IS NOT NEW.`number`, json_object('before', OLD.`number`, 'after', NEW.`number`), NULL),
    'firstOrder', iif(OLD.`first_order` IS NOT NEW.`first_order`, json_object('before', iif(OLD.`first_order` = 1, json('true'), iif(OLD.`first_order` = 0, json('false'), OLD.`first_order`)), 'after', iif(NEW.`first_order` = 1, json('true'), iif(NEW.`first_order` = 0, json('false'), NEW.`first_order`))), NULL),
    'customerId', iif(OLD.`customer_id` IS NOT NEW.`customer_id`, json_object('before', OLD.`customer_id`, 'after', NEW.`customer_id`), NULL),
    'email', iif(OLD.`email` IS NOT NEW.`email`, json_object('before', OLD.`email`, 'after', NEW.`email`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'currency', iif(OLD.`currency` IS NOT NEW.`currency`, json_object('before', OLD.`currency`, 'after', NEW.`currency`), NULL),
    'minorUnits', iif(OLD.`minor_units` IS NOT NEW.`minor_units`, json_object('before', OLD.`minor_units`, 'after', NEW.`minor_units`), NULL),
    'subtotal', iif(OLD.`subtotal` IS NOT NEW.`subtotal`, json_object('before', OLD.`subtotal`, 'after', NEW.`subtotal`), NULL),
    'discountTotal', iif(OLD.`discount_total` IS NOT NEW.`discount_total`, json_object('before', OLD.`discount_total`, 'after', NEW.`discount_total`), NULL),
    'shippingTotal', iif(OLD.`shipping_total` IS NOT NEW.`shipping_total`, json_object('before', OLD.`shipping_total`, 'after', NEW.`shipping_total`), NULL),
    'taxTotal', iif(OLD.`tax_total` IS NOT NEW.`tax_total`, json_object('before', OLD.`tax_total`, 'after', NEW.`tax_total`), NULL),
    'pricesIncludeTax', iif(OLD.`prices_include_tax` IS NOT NEW.`prices_include_tax`, json_object('before', iif(OLD.`prices_include_tax` = 1, json('true'), iif(OLD.`prices_include_tax` = 0, json('false'), OLD.`prices_include_tax`)), 'after', iif(NEW.`prices_include_tax` = 1, json('true'), iif(NEW.`prices_include_tax` = 0, json('false'), NEW.`prices_include_tax`))), NULL),
    'shippingTax', iif(OLD.`shipping_tax` IS NOT NEW.`shipping_tax`, json_object('before', OLD.`shipping_tax`, 'after', NEW.`shipping_tax`), NULL),
    'shippingTaxRate', iif(OLD.`shipping_tax_rate` IS NOT NEW.`shipping_tax_rate`, json_object('before', OLD.`shipping_tax_rate`, 'after', NEW.`shipping_tax_rate`), NULL),
    'total', iif(OLD.`total` IS NOT NEW.`total`, json_object('before', OLD.`total`, 'after', NEW.`total`), NULL),
    'amountPaid', iif(OLD.`amount_paid` IS NOT NEW.`amount_paid`, json_object('before', OLD.`amount_paid`, 'after', NEW.`amount_paid`), NULL),
    'amountRefunded', iif(OLD.`amount_refunded` IS NOT NEW.`amount_refunded`, json_object('before', OLD.`amount_refunded`, 'after', NEW.`amount_refunded`), NULL),
    'couponId', iif(OLD.`coupon_id` IS NOT NEW.`coupon_id`, json_object('before', OLD.`coupon_id`, 'after', NEW.`coupon_id`), NULL),
    'couponCode', iif(OLD.`coupon_code` IS NOT NEW.`coupon_code`, json_object('before', OLD.`coupon_code`, 'after', NEW.`coupon_code`), NULL),
    'promotions', iif(OLD.`promotions` IS NOT NEW.`promotions`, json_object('before', iif(json_valid(OLD.`promotions`), json(OLD.`promotions`), OLD.`promotions`), 'after', iif(json_valid(NEW.`promotions`), json(NEW.`promotions`), NEW.`promotions`)), NULL),
    'shippingMethodId', iif(OLD.`shipping_method_id` IS NOT NEW.`shipping_method_id`, json_object('before', OLD.`shipping_method_id`, 'after', NEW.`shipping_method_id`), NULL),
    'shippingMethodName', iif(OLD.`shipping_method_name` IS NOT NEW.`shipping_method_name`, json_object('before', OLD.`shipping_method_name`, 'after', NEW.`shipping_method_name`), NULL),
    'shippingMethodCarrier', iif(OLD.`shipping_method_carrier` IS NOT NEW.`shipping_method_carrier`, json_object('before', OLD.`shipping_method_carrier`, 'after', NEW.`shipping_method_carrier`), NULL),
    'shippingAddress', iif(OLD.`shipping_address` IS NOT NEW.`shipping_address`, json_object('before', iif(json_valid(OLD.`shipping_address`), json(OLD.`shipping_address`), OLD.`shipping_address`), 'after', iif(json_valid(NEW.`shipping_address`), json(NEW.`shipping_address`), NEW.`shipping_address`)), NULL),
    'billingAddress', iif(OLD.`billing_address` IS NOT NEW.`billing_address`, json_object('before', iif(json_valid(OLD.`billing_address`), json(OLD.`billing_address`), OLD.`billing_address`), 'after', iif(json_valid(NEW.`billing_address`), json(NEW.`billing_address`), NEW.`billing_address`)), NULL),
    'notes', iif(OLD.`notes` IS NOT NEW.`notes`, json_object('before', OLD.`notes`, 'after', NEW.`notes`), NULL),
    'cartId', iif(OLD.`cart_id` IS NOT NEW.`cart_id`, json_object('before', OLD.`cart_id`, 'after', NEW.`cart_id`), NULL),
    'cancelledAt', iif(OLD.`cancelled_at` IS NOT NEW.`cancelled_at`, json_object('before', OLD.`cancelled_at`, 'after', NEW.`cancelled_at`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `orders_payment_guard` BEFORE UPDATE OF `amount_paid`, `amount_refunded` ON `orders`
WHEN NEW.`amount_paid` > NEW.`total` OR NEW.`amount_refunded` > NEW.`amount_paid`
BEGIN
  SELECT RAISE(ABORT, 'guard:order_overpaid');
END;

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

CREATE TRIGGER `sales_order_cancelled` AFTER UPDATE OF `status` ON `orders` WHEN NEW.`status` = 'cancelled' AND OLD.`status` != 'cancelled'
BEGIN
  UPDATE `sales_days` SET `orders` = `orders` - 1, `first_orders` = `first_orders` - OLD.`first_order`,
    `first_order_sales` = `first_order_sales` - CASE WHEN OLD.`first_order` THEN OLD.`total` ELSE 0 END,
    `units` = `units` - (SELECT coalesce(sum(`quantity`), 0) FROM `order_lines` WHERE `order_id` = OLD.`id`),
    `gross` = `gross` - OLD.`subtotal`, `discounts` = `discounts` - OLD.`discount_total`, `shipping` = `shipping` - OLD.`shipping_total`,
    `tax` = `tax` - OLD.`tax_total`, `line_tax_included` = `line_tax_included` - CASE WHEN OLD.`prices_include_tax` THEN OLD.`tax_total` - OLD.`shipping_tax` ELSE 0 END,
    `sales` = `sales` - OLD.`total`
  WHERE `currency` = OLD.`currency` AND `day` = substr(OLD.`created_at`, 1, 10);
  UPDATE `product_sales_days` SET
    `units` = `units` - (SELECT coalesce(sum(l.`quantity`), 0) - coalesce((SELECT sum(rl.`quantity`) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_days`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_days`.`product_id`),
    `revenue` = `revenue` - (SELECT coalesce(sum(l.`total` - l.`tax`), 0) - coalesce((SELECT sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_days`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_days`.`product_id`),
    `lines` = `lines` - (SELECT count(*) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_days`.`product_id`)
  WHERE `currency` = OLD.`currency` AND `day` = substr(OLD.`created_at`, 1, 10) AND `product_id` IN (SELECT `product_id` FROM `order_lines` WHERE `order_id` = OLD.`id`);
END;

CREATE TRIGGER `sales_order_cancelled_month` AFTER UPDATE OF `status` ON `orders` WHEN NEW.`status` = 'cancelled' AND OLD.`status` != 'cancelled'
BEGIN
  UPDATE `product_sales_months` SET
    `units` = `units` - (SELECT coalesce(sum(l.`quantity`), 0) - coalesce((SELECT sum(rl.`quantity`) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_months`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_months`.`product_id`),
    `revenue` = `revenue` - (SELECT coalesce(sum(l.`total` - l.`tax`), 0) - coalesce((SELECT sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_months`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_months`.`product_id`),
    `lines` = `lines` - (SELECT count(*) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_months`.`product_id`)
  WHERE `currency` = OLD.`currency` AND `month` = substr(OLD.`created_at`, 1, 7) AND `product_id` IN (SELECT `product_id` FROM `order_lines` WHERE `order_id` = OLD.`id`);
END;

CREATE TRIGGER `sales_order_placed` AFTER INSERT ON `orders` WHEN NEW.`status` != 'cancelled'
BEGIN
  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `orders`, `first_orders`, `first_order_sales`, `gross`, `discounts`, `shipping`, `tax`, `line_tax_included`, `sales`)
  VALUES (substr(NEW.`created_at`, 1, 10), NEW.`currency`, NEW.`minor_units`, 1, NEW.`first_order`, CASE WHEN NEW.`first_order` THEN NEW.`total` ELSE 0 END,
    NEW.`subtotal`, NEW.`discount_total`, NEW.`shipping_total`, NEW.`tax_total`, CASE WHEN NEW.`prices_include_tax` THEN NEW.`tax_total` - NEW.`shipping_tax` ELSE 0 END, NEW.`total`)
  ON CONFLICT (`currency`, `day`) DO UPDATE SET `minor_units` = `excluded`.`minor_units`, `orders` = `orders` + 1, `first_orders` = `first_orders` + `excluded`.`first_orders`,
    `first_order_sales` = `first_order_sales` + `excluded`.`first_order_sales`, `gross` = `gross` + `excluded`.`gross`, `discounts` = `discounts` + `excluded`.`discounts`,
    `shipping` = `shipping` + `excluded`.`shipping`, `tax` = `tax` + `excluded`.`tax`, `line_tax_included` = `line_tax_included` + `excluded`.`line_tax_included`,
    `sales` = `sales` + `excluded`.`sales`;
END;

CREATE TABLE `pages` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`body_html` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`seo_title` text,
	`seo_description` text,
	`published_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE INDEX `pages_created_idx` ON `pages` (`created_at`,`id`);
CREATE UNIQUE INDEX `pages_slug_unique` ON `pages` (`slug`);
CREATE INDEX `pages_status_published_idx` ON `pages` (`status`,`published_at`,`id`);
CREATE INDEX `pages_title_idx` ON `pages` (`title`,`id`);
CREATE INDEX `pages_updated_idx` ON `pages` (`updated_at`,`id`);

CREATE TRIGGER `audit_pages_create` AFTER INSERT ON `pages`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'page', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'title', json_object('after', NEW.`title`),
    'slug', json_object('after', NEW.`slug`),
    'body', json_object('after', NEW.`body`),
    'bodyHtml', json_object('after', NEW.`body_html`),
    'status', json_object('after', NEW.`status`),
    'seoTitle', json_object('after', NEW.`seo_title`),
    'seoDescription', json_object('after', NEW.`seo_description`),
    'publishedAt', json_object('after', NEW.`published_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_pages_delete` AFTER DELETE ON `pages`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'page', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'title', json_object('before', OLD.`title`),
    'slug', json_object('before', OLD.`slug`),
    'body', json_object('before', OLD.`body`),
    'bodyHtml', json_object('before', OLD.`body_html`),
    'status', json_object('before', OLD.`status`),
    'seoTitle', json_object('before', OLD.`seo_title`),
    'seoDescription', json_object('before', OLD.`seo_description`),
    'publishedAt', json_object('before', OLD.`published_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_pages_update` AFTER UPDATE OF `id`, `title`, `slug`, `body`, `body_html`, `status`, `seo_title`, `seo_description`, `published_at` ON `pages`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`title` IS NOT NEW.`title` OR OLD.`slug` IS NOT NEW.`slug` OR OLD.`body` IS NOT NEW.`body` OR OLD.`body_html` IS NOT NEW.`body_html` OR OLD.`status` IS NOT NEW.`status` OR OLD.`seo_title` IS NOT NEW.`seo_title` OR OLD.`seo_description` IS NOT NEW.`seo_description` OR OLD.`published_at` IS NOT NEW.`published_at`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'page', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'title', iif(OLD.`title` IS NOT NEW.`title`, json_object('before', OLD.`title`, 'after', NEW.`title`), NULL),
    'slug', iif(OLD.`slug` IS NOT NEW.`slug`, json_object('before', OLD.`slug`, 'after', NEW.`slug`), NULL),
    'body', iif(OLD.`body` IS NOT NEW.`body`, json_object('before', OLD.`body`, 'after', NEW.`body`), NULL),
    'bodyHtml', iif(OLD.`body_html` IS NOT NEW.`body_html`, json_object('before', OLD.`body_html`, 'after', NEW.`body_html`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'seoTitle', iif(OLD.`seo_title` IS NOT NEW.`seo_title`, json_object('before', OLD.`seo_title`, 'after', NEW.`seo_title`), NULL),
    'seoDescription', iif(OLD.`seo_description` IS NOT NEW.`seo_description`, json_object('before', OLD.`seo_description`, 'after', NEW.`seo_description`), NULL),
    'publishedAt', iif(OLD.`published_at` IS NOT NEW.`published_at`, json_object('before', OLD.`published_at`, 'after', NEW.`published_at`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `pages_bump_catalogue_delete` AFTER DELETE ON `pages`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `pages_bump_catalogue_insert` AFTER INSERT ON `pages`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `pages_bump_catalogue_update` AFTER UPDATE ON `pages`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `password_reset_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE UNIQUE INDEX `password_reset_tokens_token_hash_unique` ON `password_reset_tokens` (`token_hash`);
CREATE INDEX `password_reset_tokens_user_idx` ON `password_reset_tokens` (`user_id`,`created_at`);

CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`provider` text NOT NULL,
	`provider_reference` text,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`amount_refunded` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`failure_reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `provider_input` text DEFAULT '{}' NOT NULL, `request_key` text, `dispute_status` text,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE restrict
);

CREATE INDEX `payments_created_idx` ON `payments` (`created_at`,`id`);
CREATE INDEX `payments_order_idx` ON `payments` (`order_id`,`created_at`);
CREATE INDEX `payments_pending_idx` ON `payments` (`updated_at`) WHERE `status` = 'pending';
CREATE INDEX `payments_provider_reference_idx` ON `payments` (`provider_reference`);
CREATE UNIQUE INDEX `payments_request_key_idx` ON `payments` (`request_key`);

CREATE TRIGGER `audit_payments_create` AFTER INSERT ON `payments`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'payment', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'orderId', json_object('after', NEW.`order_id`),
    'provider', json_object('after', NEW.`provider`),
    'providerReference', json_object('after', NEW.`provider_reference`),
    'status', json_object('after', NEW.`status`),
    'amount', json_object('after', NEW.`amount`),
    'amountRefunded', json_object('after', NEW.`amount_refunded`),
    'currency', json_object('after', NEW.`currency`),
    'failureReason', json_object('after', NEW.`failure_reason`),
    'providerInput', json_object('after', iif(json_valid(NEW.`provider_input`), json(NEW.`provider_input`), NEW.`provider_input`)),
    'requestKey', json_object('after', NEW.`request_key`),
    'disputeStatus', json_object('after', NEW.`dispute_status`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_payments_delete` AFTER DELETE ON `payments`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'payment', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'orderId', json_object('before', OLD.`order_id`),
    'provider', json_object('before', OLD.`provider`),
    'providerReference', json_object('before', OLD.`provider_reference`),
    'status', json_object('before', OLD.`status`),
    'amount', json_object('before', OLD.`amount`),
    'amountRefunded', json_object('before', OLD.`amount_refunded`),
    'currency', json_object('before', OLD.`currency`),
    'failureReason', json_object('before', OLD.`failure_reason`),
    'providerInput', json_object('before', iif(json_valid(OLD.`provider_input`), json(OLD.`provider_input`), OLD.`provider_input`)),
    'requestKey', json_object('before', OLD.`request_key`),
    'disputeStatus', json_object('before', OLD.`dispute_status`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_payments_update` AFTER UPDATE OF `id`, `order_id`, `provider`, `provider_reference`, `status`, `amount`, `amount_refunded`, `currency`, `failure_reason`, `provider_input`, `request_key`, `dispute_status` ON `payments`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`order_id` IS NOT NEW.`order_id` OR OLD.`provider` IS NOT NEW.`provider` OR OLD.`provider_reference` IS NOT NEW.`provider_reference` OR OLD.`status` IS NOT NEW.`status` OR OLD.`amount` IS NOT NEW.`amount` OR OLD.`amount_refunded` IS NOT NEW.`amount_refunded` OR OLD.`currency` IS NOT NEW.`currency` OR OLD.`failure_reason` IS NOT NEW.`failure_reason` OR OLD.`provider_input` IS NOT NEW.`provider_input` OR OLD.`request_key` IS NOT NEW.`request_key` OR OLD.`dispute_status` IS NOT NEW.`dispute_status`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'payment', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'orderId', iif(OLD.`order_id` IS NOT NEW.`order_id`, json_object('before', OLD.`order_id`, 'after', NEW.`order_id`), NULL),
    'provider', iif(OLD.`provider` IS NOT NEW.`provider`, json_object('before', OLD.`provider`, 'after', NEW.`provider`), NULL),
    'providerReference', iif(OLD.`provider_reference` IS NOT NEW.`provider_reference`, json_object('before', OLD.`provider_reference`, 'after', NEW.`provider_reference`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'amount', iif(OLD.`amount` IS NOT NEW.`amount`, json_object('before', OLD.`amount`, 'after', NEW.`amount`), NULL),
    'amountRefunded', iif(OLD.`amount_refunded` IS NOT NEW.`amount_refunded`, json_object('before', OLD.`amount_refunded`, 'after', NEW.`amount_refunded`), NULL),
    'currency', iif(OLD.`currency` IS NOT NEW.`currency`, json_object('before', OLD.`currency`, 'after', NEW.`currency`), NULL),
    'failureReason', iif(OLD.`failure_reason` IS NOT NEW.`failure_reason`, json_object('before', OLD.`failure_reason`, 'after', NEW.`failure_reason`), NULL),
    'providerInput', iif(OLD.`provider_input` IS NOT NEW.`provider_input`, json_object('before', iif(json_valid(OLD.`provider_input`), json(OLD.`provider_input`), OLD.`provider_input`), 'after', iif(json_valid(NEW.`provider_input`), json(NEW.`provider_input`), NEW.`provider_input`)), NULL),
    'requestKey', iif(OLD.`request_key` IS NOT NEW.`request_key`, json_object('before', OLD.`request_key`, 'after', NEW.`request_key`), NULL),
    'disputeStatus', iif(OLD.`dispute_status` IS NOT NEW.`dispute_status`, json_object('before', OLD.`dispute_status`, 'after', NEW.`dispute_status`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `payments_refund_guard` BEFORE UPDATE OF `amount_refunded` ON `payments`
WHEN NEW.`amount_refunded` > NEW.`amount`
BEGIN
  SELECT RAISE(ABORT, 'guard:refund_exceeds_payment');
END;

CREATE TABLE `price_list_prices` (
	`price_list_id` text NOT NULL,
	`variant_id` text NOT NULL,
	`min_quantity` integer DEFAULT 1 NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`price_list_id`, `variant_id`, `min_quantity`),
	FOREIGN KEY (`price_list_id`) REFERENCES `price_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`variant_id`) REFERENCES `product_variants`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `price_list_prices_variant_idx` ON `price_list_prices` (`variant_id`,`price_list_id`);

CREATE TRIGGER `audit_price_list_prices_create` AFTER INSERT ON `price_list_prices`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'price_list_price', NEW.`price_list_id` || '/' || NEW.`variant_id` || '/' || NEW.`min_quantity`, 'create',
  coalesce(json_object(
    'priceListId', json_object('after', NEW.`price_list_id`),
    'variantId', json_object('after', NEW.`variant_id`),
    'minQuantity', json_object('after', NEW.`min_quantity`),
    'amount', json_object('after', NEW.`amount`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_price_list_prices_delete` AFTER DELETE ON `price_list_prices`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'price_list_price', OLD.`price_list_id` || '/' || OLD.`variant_id` || '/' || OLD.`min_quantity`, 'delete',
  coalesce(json_object(
    'priceListId', json_object('before', OLD.`price_list_id`),
    'variantId', json_object('before', OLD.`variant_id`),
    'minQuantity', json_object('before', OLD.`min_quantity`),
    'amount', json_object('before', OLD.`amount`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_price_list_prices_update` AFTER UPDATE OF `price_list_id`, `variant_id`, `min_quantity`, `amount` ON `price_list_prices`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`price_list_id` IS NOT NEW.`price_list_id` OR OLD.`variant_id` IS NOT NEW.`variant_id` OR OLD.`min_quantity` IS NOT NEW.`min_quantity` OR OLD.`amount` IS NOT NEW.`amount`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'price_list_price', NEW.`price_list_id` || '/' || NEW.`variant_id` || '/' || NEW.`min_quantity`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'priceListId', iif(OLD.`price_list_id` IS NOT NEW.`price_list_id`, json_object('before', OLD.`price_list_id`, 'after', NEW.`price_list_id`), NULL),
    'variantId', iif(OLD.`variant_id` IS NOT NEW.`variant_id`, json_object('before', OLD.`variant_id`, 'after', NEW.`variant_id`), NULL),
    'minQuantity', iif(OLD.`min_quantity` IS NOT NEW.`min_quantity`, json_object('before', OLD.`min_quantity`, 'after', NEW.`min_quantity`), NULL),
    'amount', iif(OLD.`amount` IS NOT NEW.`amount`, json_object('before', OLD.`amount`, 'after', NEW.`amount`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `price_list_prices_bump_versions_delete` AFTER DELETE ON `price_list_prices`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `price_list_prices_bump_versions_insert` AFTER INSERT ON `price_list_prices`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `price_list_prices_bump_versions_update` AFTER UPDATE ON `price_list_prices`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `price_lists` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`customer_group_id` text,
	`currency` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`starts_at` text,
	`ends_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`customer_group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `price_lists_group_idx` ON `price_lists` (`customer_group_id`);

CREATE TRIGGER `audit_price_lists_create` AFTER INSERT ON `price_lists`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'price_list', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'description', json_object('after', NEW.`description`),
    'customerGroupId', json_object('after', NEW.`customer_group_id`),
    'currency', json_object('after', NEW.`currency`),
    'status', json_object('after', NEW.`status`),
    'startsAt', json_object('after', NEW.`starts_at`),
    'endsAt', json_object('after', NEW.`ends_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_price_lists_delete` AFTER DELETE ON `price_lists`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'price_list', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'description', json_object('before', OLD.`description`),
    'customerGroupId', json_object('before', OLD.`customer_group_id`),
    'currency', json_object('before', OLD.`currency`),
    'status', json_object('before', OLD.`status`),
    'startsAt', json_object('before', OLD.`starts_at`),
    'endsAt', json_object('before', OLD.`ends_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_price_lists_update` AFTER UPDATE OF `id`, `name`, `description`, `customer_group_id`, `currency`, `status`, `starts_at`, `ends_at` ON `price_lists`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`description` IS NOT NEW.`description` OR OLD.`customer_group_id` IS NOT NEW.`customer_group_id` OR OLD.`currency` IS NOT NEW.`currency` OR OLD.`status` IS NOT NEW.`status` OR OLD.`starts_at` IS NOT NEW.`starts_at` OR OLD.`ends_at` IS NOT NEW.`ends_at`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'price_list', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'description', iif(OLD.`description` IS NOT NEW.`description`, json_object('before', OLD.`description`, 'after', NEW.`description`), NULL),
    'customerGroupId', iif(OLD.`customer_group_id` IS NOT NEW.`customer_group_id`, json_object('before', OLD.`customer_group_id`, 'after', NEW.`customer_group_id`), NULL),
    'currency', iif(OLD.`currency` IS NOT NEW.`currency`, json_object('before', OLD.`currency`, 'after', NEW.`currency`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'startsAt', iif(OLD.`starts_at` IS NOT NEW.`starts_at`, json_object('before', OLD.`starts_at`, 'after', NEW.`starts_at`), NULL),
    'endsAt', iif(OLD.`ends_at` IS NOT NEW.`ends_at`, json_object('before', OLD.`ends_at`, 'after', NEW.`ends_at`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `price_lists_bump_versions_delete` AFTER DELETE ON `price_lists`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `price_lists_bump_versions_insert` AFTER INSERT ON `price_lists`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `price_lists_bump_versions_update` AFTER UPDATE ON `price_lists`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `product_categories` (
	`product_id` text NOT NULL,
	`category_id` text NOT NULL,
	PRIMARY KEY(`product_id`, `category_id`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `product_categories_category_idx` ON `product_categories` (`category_id`,`product_id`);

CREATE TRIGGER `audit_product_categories_create` AFTER INSERT ON `product_categories`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'product_category', NEW.`product_id` || '/' || NEW.`category_id`, 'create',
  coalesce(json_object(
    'productId', json_object('after', NEW.`product_id`),
    'categoryId', json_object('after', NEW.`category_id`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_product_categories_delete` AFTER DELETE ON `product_categories`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'product_category', OLD.`product_id` || '/' || OLD.`category_id`, 'delete',
  coalesce(json_object(
    'productId', json_object('before', OLD.`product_id`),
    'categoryId', json_object('before', OLD.`category_id`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_product_categories_update` AFTER UPDATE OF `product_id`, `category_id` ON `product_categories`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`product_id` IS NOT NEW.`product_id` OR OLD.`category_id` IS NOT NEW.`category_id`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'product_category', NEW.`product_id` || '/' || NEW.`category_id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'productId', iif(OLD.`product_id` IS NOT NEW.`product_id`, json_object('before', OLD.`product_id`, 'after', NEW.`product_id`), NULL),
    'categoryId', iif(OLD.`category_id` IS NOT NEW.`category_id`, json_object('before', OLD.`category_id`, 'after', NEW.`category_id`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `category_listing_link_delete` AFTER DELETE ON `product_categories`
BEGIN
  DELETE FROM `category_listing`
    WHERE `product_id` = OLD.`product_id`
      AND `category_id` IN (SELECT `ancestor_id` FROM `category_tree` WHERE `descendant_id` = OLD.`category_id`)
      AND NOT EXISTS (
        SELECT 1 FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id`
        WHERE pc.`product_id` = OLD.`product_id` AND t.`ancestor_id` = `category_listing`.`category_id`
      );
END;

CREATE TRIGGER `category_listing_link_insert` AFTER INSERT ON `product_categories`
BEGIN
  INSERT INTO `category_listing` (`category_id`, `product_id`, `status`, `created_at`, `updated_at`, `name`, `price`, `sku`)
    SELECT t.`ancestor_id`, p.`id`, p.`status`, p.`created_at`, p.`updated_at`, p.`name`, p.`price`, p.`sku`
    FROM `category_tree` t JOIN `products` p ON p.`id` = NEW.`product_id`
    WHERE t.`descendant_id` = NEW.`category_id`
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER `product_categories_bump_catalogue_delete` AFTER DELETE ON `product_categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_categories_bump_catalogue_insert` AFTER INSERT ON `product_categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_categories_bump_catalogue_update` AFTER UPDATE ON `product_categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_categories_bump_quote_delete` AFTER DELETE ON `product_categories`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_categories_bump_quote_insert` AFTER INSERT ON `product_categories`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_categories_bump_quote_update` AFTER UPDATE ON `product_categories`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_categories_count_delete` AFTER DELETE ON `product_categories`
BEGIN
  UPDATE `category_product_counts` SET `count` = `count` - 1
    WHERE `status` = (SELECT `status` FROM `products` WHERE `id` = OLD.`product_id`)
      AND `category_id` IN (
        SELECT t.`ancestor_id` FROM `category_tree` t
        WHERE t.`descendant_id` = OLD.`category_id`
          AND NOT EXISTS (
            SELECT 1 FROM `product_categories` pc JOIN `category_tree` t2 ON t2.`descendant_id` = pc.`category_id`
            WHERE pc.`product_id` = OLD.`product_id` AND t2.`ancestor_id` = t.`ancestor_id`
          )
      );
END;

CREATE TRIGGER `product_categories_count_insert` AFTER INSERT ON `product_categories`
BEGIN
  INSERT INTO `category_product_counts` (`category_id`, `status`, `count`)
    SELECT t.`ancestor_id`, p.`status`, 1 FROM `category_tree` t JOIN `products` p ON p.`id` = NEW.`product_id`
    WHERE t.`descendant_id` = NEW.`category_id`
      AND NOT EXISTS (
        SELECT 1 FROM `product_categories` pc JOIN `category_tree` t2 ON t2.`descendant_id` = pc.`category_id`
        WHERE pc.`product_id` = NEW.`product_id` AND pc.`category_id` <> NEW.`category_id` AND t2.`ancestor_id` = t.`ancestor_id`
      )
    ON CONFLICT (`category_id`, `status`) DO UPDATE SET `count` = `count` + 1;
END;

CREATE TRIGGER `product_categories_no_update` BEFORE UPDATE ON `product_categories`
BEGIN
  SELECT RAISE(ABORT, 'product_categories rows are not updated: delete the link and insert the new one');
END;

CREATE TRIGGER `product_categories_related_delete` AFTER DELETE ON `product_categories`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (OLD.`product_id`);
END;

CREATE TRIGGER `product_categories_related_insert` AFTER INSERT ON `product_categories`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`product_id`);
END;

CREATE TABLE `product_facet_counts` (
	`facet` text NOT NULL,
	`key` text NOT NULL,
	`status` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`facet`, `status`, `key`)
);

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

CREATE INDEX `product_media_key_idx` ON `product_media` (`key`);
CREATE INDEX `product_media_product_idx` ON `product_media` (`product_id`,`position`);

CREATE TRIGGER `audit_product_media_create` AFTER INSERT ON `product_media`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'product_media', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'productId', json_object('after', NEW.`product_id`),
    'variantId', json_object('after', NEW.`variant_id`),
    'key', json_object('after', NEW.`key`),
    'url', json_object('after', NEW.`url`),
    'contentType', json_object('after', NEW.`content_type`),
    'byteSize', json_object('after', NEW.`byte_size`),
    'width', json_object('after', NEW.`width`),
    'height', json_object('after', NEW.`height`),
    'alt', json_object('after', NEW.`alt`),
    'position', json_object('after', NEW.`position`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_product_media_delete` AFTER DELETE ON `product_media`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'product_media', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'productId', json_object('before', OLD.`product_id`),
    'variantId', json_object('before', OLD.`variant_id`),
    'key', json_object('before', OLD.`key`),
    'url', json_object('before', OLD.`url`),
    'contentType', json_object('before', OLD.`content_type`),
    'byteSize', json_object('before', OLD.`byte_size`),
    'width', json_object('before', OLD.`width`),
    'height', json_object('before', OLD.`height`),
    'alt', json_object('before', OLD.`alt`),
    'position', json_object('before', OLD.`position`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_product_media_update` AFTER UPDATE OF `id`, `product_id`, `variant_id`, `key`, `url`, `content_type`, `byte_size`, `width`, `height`, `alt`, `position` ON `product_media`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`product_id` IS NOT NEW.`product_id` OR OLD.`variant_id` IS NOT NEW.`variant_id` OR OLD.`key` IS NOT NEW.`key` OR OLD.`url` IS NOT NEW.`url` OR OLD.`content_type` IS NOT NEW.`content_type` OR OLD.`byte_size` IS NOT NEW.`byte_size` OR OLD.`width` IS NOT NEW.`width` OR OLD.`height` IS NOT NEW.`height` OR OLD.`alt` IS NOT NEW.`alt` OR OLD.`position` IS NOT NEW.`position`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'product_media', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'productId', iif(OLD.`product_id` IS NOT NEW.`product_id`, json_object('before', OLD.`product_id`, 'after', NEW.`product_id`), NULL),
    'variantId', iif(OLD.`variant_id` IS NOT NEW.`variant_id`, json_object('before', OLD.`variant_id`, 'after', NEW.`variant_id`), NULL),
    'key', iif(OLD.`key` IS NOT NEW.`key`, json_object('before', OLD.`key`, 'after', NEW.`key`), NULL),
    'url', iif(OLD.`url` IS NOT NEW.`url`, json_object('before', OLD.`url`, 'after', NEW.`url`), NULL),
    'contentType', iif(OLD.`content_type` IS NOT NEW.`content_type`, json_object('before', OLD.`content_type`, 'after', NEW.`content_type`), NULL),
    'byteSize', iif(OLD.`byte_size` IS NOT NEW.`byte_size`, json_object('before', OLD.`byte_size`, 'after', NEW.`byte_size`), NULL),
    'width', iif(OLD.`width` IS NOT NEW.`width`, json_object('before', OLD.`width`, 'after', NEW.`width`), NULL),
    'height', iif(OLD.`height` IS NOT NEW.`height`, json_object('before', OLD.`height`, 'after', NEW.`height`), NULL),
    'alt', iif(OLD.`alt` IS NOT NEW.`alt`, json_object('before', OLD.`alt`, 'after', NEW.`alt`), NULL),
    'position', iif(OLD.`position` IS NOT NEW.`position`, json_object('before', OLD.`position`, 'after', NEW.`position`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

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

CREATE TRIGGER `product_media_insert` AFTER INSERT ON `product_media`
BEGIN
  UPDATE `products` SET `media` = (SELECT json_group_array(json_object(
      'id', m.`id`, 'key', m.`key`, 'url', m.`url`, 'contentType', m.`content_type`, 'byteSize', m.`byte_size`, 'width', m.`width`, 'height', m.`height`,
      'alt', m.`alt`, 'position', m.`position`, 'variantId', m.`variant_id`, 'createdAt', m.`created_at`, 'updatedAt', m.`updated_at`) ORDER BY m.`position`, m.`id`)
    FROM `product_media` m WHERE m.`product_id` = NEW.`product_id`) WHERE `id` = NEW.`product_id`;
  DELETE FROM `media_unused` WHERE `key` = NEW.`key`;
END;

CREATE TRIGGER `product_media_update` AFTER UPDATE ON `product_media`
BEGIN
  UPDATE `products` SET `media` = (SELECT json_group_array(json_object(
      'id', m.`id`, 'key', m.`key`, 'url', m.`url`, 'contentType', m.`content_type`, 'byteSize', m.`byte_size`, 'width', m.`width`, 'height', m.`height`,
      'alt', m.`alt`, 'position', m.`position`, 'variantId', m.`variant_id`, 'createdAt', m.`created_at`, 'updatedAt', m.`updated_at`) ORDER BY m.`position`, m.`id`)
    FROM `product_media` m WHERE m.`product_id` = NEW.`product_id`) WHERE `id` = NEW.`product_id`;
END;

CREATE TABLE `product_related_refresh` (
	`product_id` text NOT NULL
);

CREATE TRIGGER `product_related_refresh_apply` BEFORE INSERT ON `product_related_refresh`
BEGIN
  UPDATE `products` SET `related` = json_object(
    'brand', json((SELECT json_object('id', b.`id`, 'name', b.`name`, 'slug', b.`slug`) FROM `brands` b WHERE b.`id` = `products`.`brand_id`)),
    'vendor', json((SELECT json_object('id', v.`id`, 'name', v.`name`, 'slug', v.`slug`) FROM `vendors` v WHERE v.`id` = `products`.`vendor_id`)),
    'categories', json((SELECT json_group_array(json_object('id', c.`id`, 'name', c.`name`, 'slug', c.`slug`) ORDER BY c.`name`, c.`id`)
      FROM `product_categories` pc JOIN `categories` c ON c.`id` = pc.`category_id` WHERE pc.`product_id` = `products`.`id`)),
    'variants', json((SELECT json_group_array(json_object(
        'id', v.`id`, 'productId', v.`product_id`, 'sku', v.`sku`, 'name', v.`name`, 'options', json(v.`options`),
        'price', v.`price`, 'compareAtPrice', v.`compare_at_price`, 'weight', v.`weight`, 'prices', json(v.`prices`), 'stock', v.`stock`, 'lowStockThreshold', v.`low_stock_threshold`,
        'position', v.`position`, 'createdAt', v.`created_at`, 'updatedAt', v.`updated_at`) ORDER BY v.`position`, v.`id`)
      FROM `product_variants` v WHERE v.`product_id` = `products`.`id`))
  ), `variant_prices` = (
    SELECT json_group_object(o.`code`, json_object('own', o.`own`, 'toConvert',
      (SELECT min(r.`price`) FROM `product_variants` r WHERE r.`product_id` = `products`.`id` AND json_type(r.`prices`, '$.' || o.`code`) IS NULL)))
    FROM (SELECT j.`key` AS `code`, min(json_extract(j.`value`, '$.amount')) AS `own`
      FROM `product_variants` v, json_each(v.`prices`) j WHERE v.`product_id` = `products`.`id` GROUP BY j.`key`) o
  ) WHERE `id` = NEW.`product_id`;
  SELECT RAISE(IGNORE);
END;

CREATE TABLE `product_sales_days` (
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`product_id` text NOT NULL,
	`name` text NOT NULL,
	`units` integer DEFAULT 0 NOT NULL,
	`revenue` integer DEFAULT 0 NOT NULL,
	`lines` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`currency`, `day`, `product_id`)
);

CREATE TABLE `product_sales_months` (
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`product_id` text NOT NULL,
	`name` text NOT NULL,
	`units` integer DEFAULT 0 NOT NULL,
	`revenue` integer DEFAULT 0 NOT NULL,
	`lines` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`currency`, `month`, `product_id`)
);

CREATE VIRTUAL TABLE `product_search` USING fts5(`name`, `skus`, `brand`, `categories`, `variants`, `description`, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');

CREATE TABLE `product_search_rows` (
	`doc` integer PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL
);

CREATE UNIQUE INDEX `product_search_rows_product_id_unique` ON `product_search_rows` (`product_id`);

CREATE TABLE `product_status_counts` (
	`status` text PRIMARY KEY NOT NULL,
	`count` integer DEFAULT 0 NOT NULL
);

CREATE TABLE `product_variants` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`sku` text,
	`name` text,
	`options` text DEFAULT '{}' NOT NULL,
	`price` integer NOT NULL,
	`compare_at_price` integer,
	`stock` integer DEFAULT 0 NOT NULL,
	`low_stock_threshold` integer,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `weight` real, `prices` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `product_variants_product_idx` ON `product_variants` (`product_id`,`position`);
CREATE UNIQUE INDEX `product_variants_sku_unique` ON `product_variants` (`sku`);

CREATE TRIGGER `audit_product_variants_create` AFTER INSERT ON `product_variants`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'variant', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'productId', json_object('after', NEW.`product_id`),
    'sku', json_object('after', NEW.`sku`),
    'name', json_object('after', NEW.`name`),
    'options', json_object('after', iif(json_valid(NEW.`options`), json(NEW.`options`), NEW.`options`)),
    'price', json_object('after', NEW.`price`),
    'compareAtPrice', json_object('after', NEW.`compare_at_price`),
    'weight', json_object('after', NEW.`weight`),
    'prices', json_object('after', iif(json_valid(NEW.`prices`), json(NEW.`prices`), NEW.`prices`)),
    'stock', json_object('after', NEW.`stock`),
    'lowStockThreshold', json_object('after', NEW.`low_stock_threshold`),
    'position', json_object('after', NEW.`position`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_product_variants_delete` AFTER DELETE ON `product_variants`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'variant', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'productId', json_object('before', OLD.`product_id`),
    'sku', json_object('before', OLD.`sku`),
    'name', json_object('before', OLD.`name`),
    'options', json_object('before', iif(json_valid(OLD.`options`), json(OLD.`options`), OLD.`options`)),
    'price', json_object('before', OLD.`price`),
    'compareAtPrice', json_object('before', OLD.`compare_at_price`),
    'weight', json_object('before', OLD.`weight`),
    'prices', json_object('before', iif(json_valid(OLD.`prices`), json(OLD.`prices`), OLD.`prices`)),
    'stock', json_object('before', OLD.`stock`),
    'lowStockThreshold', json_object('before', OLD.`low_stock_threshold`),
    'position', json_object('before', OLD.`position`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_product_variants_update` AFTER UPDATE OF `id`, `product_id`, `sku`, `name`, `options`, `price`, `compare_at_price`, `weight`, `prices`, `low_stock_threshold`, `position` ON `product_variants`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`product_id` IS NOT NEW.`product_id` OR OLD.`sku` IS NOT NEW.`sku` OR OLD.`name` IS NOT NEW.`name` OR OLD.`options` IS NOT NEW.`options` OR OLD.`price` IS NOT NEW.`price` OR OLD.`compare_at_price` IS NOT NEW.`compare_at_price` OR OLD.`weight` IS NOT NEW.`weight` OR OLD.`prices` IS NOT NEW.`prices` OR OLD.`low_stock_threshold` IS NOT NEW.`low_stock_threshold` OR OLD.`position` IS NOT NEW.`position`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'variant', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'productId', iif(OLD.`product_id` IS NOT NEW.`product_id`, json_object('before', OLD.`product_id`, 'after', NEW.`product_id`), NULL),
    'sku', iif(OLD.`sku` IS NOT NEW.`sku`, json_object('before', OLD.`sku`, 'after', NEW.`sku`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'options', iif(OLD.`options` IS NOT NEW.`options`, json_object('before', iif(json_valid(OLD.`options`), json(OLD.`options`), OLD.`options`), 'after', iif(json_valid(NEW.`options`), json(NEW.`options`), NEW.`options`)), NULL),
    'price', iif(OLD.`price` IS NOT NEW.`price`, json_object('before', OLD.`price`, 'after', NEW.`price`), NULL),
    'compareAtPrice', iif(OLD.`compare_at_price` IS NOT NEW.`compare_at_price`, json_object('before', OLD.`compare_at_price`, 'after', NEW.`compare_at_price`), NULL),
    'weight', iif(OLD.`weight` IS NOT NEW.`weight`, json_object('before', OLD.`weight`, 'after', NEW.`weight`), NULL),
    'prices', iif(OLD.`prices` IS NOT NEW.`prices`, json_object('before', iif(json_valid(OLD.`prices`), json(OLD.`prices`), OLD.`prices`), 'after', iif(json_valid(NEW.`prices`), json(NEW.`prices`), NEW.`prices`)), NULL),
    'stock', iif(OLD.`stock` IS NOT NEW.`stock`, json_object('before', OLD.`stock`, 'after', NEW.`stock`), NULL),
    'lowStockThreshold', iif(OLD.`low_stock_threshold` IS NOT NEW.`low_stock_threshold`, json_object('before', OLD.`low_stock_threshold`, 'after', NEW.`low_stock_threshold`), NULL),
    'position', iif(OLD.`position` IS NOT NEW.`position`, json_object('before', OLD.`position`, 'after', NEW.`position`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_product_variants_update_hot` AFTER UPDATE OF `stock` ON `product_variants`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`stock` IS NOT NEW.`stock`) AND NOT (OLD.`id` IS NOT NEW.`id` OR OLD.`product_id` IS NOT NEW.`product_id` OR OLD.`sku` IS NOT NEW.`sku` OR OLD.`name` IS NOT NEW.`name` OR OLD.`options` IS NOT NEW.`options` OR OLD.`price` IS NOT NEW.`price` OR OLD.`compare_at_price` IS NOT NEW.`compare_at_price` OR OLD.`weight` IS NOT NEW.`weight` OR OLD.`prices` IS NOT NEW.`prices` OR OLD.`low_stock_threshold` IS NOT NEW.`low_stock_threshold` OR OLD.`position` IS NOT NEW.`position`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'variant', NEW.`id`, 'update',
  coalesce(json_object('stock', json_object('before', OLD.`stock`, 'after', NEW.`stock`)), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `product_search_variant_delete` AFTER DELETE ON `product_variants`
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = OLD.`product_id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) SELECT (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = p.`id`), p.`name`, trim(coalesce(p.`sku`, '') || ' ' || coalesce((SELECT group_concat(v.`sku`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), '')), coalesce(json_extract(p.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(p.`related`, '$.categories')), ''), coalesce((SELECT group_concat(v.`name`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), ''), coalesce(p.`description`, '') FROM `products` p WHERE p.`id` = OLD.`product_id`;
END;

CREATE TRIGGER `product_search_variant_insert` AFTER INSERT ON `product_variants`
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`product_id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) SELECT (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = p.`id`), p.`name`, trim(coalesce(p.`sku`, '') || ' ' || coalesce((SELECT group_concat(v.`sku`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), '')), coalesce(json_extract(p.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(p.`related`, '$.categories')), ''), coalesce((SELECT group_concat(v.`name`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), ''), coalesce(p.`description`, '') FROM `products` p WHERE p.`id` = NEW.`product_id`;
END;

CREATE TRIGGER `product_search_variant_update` AFTER UPDATE OF `name`, `sku`, `product_id` ON `product_variants`
WHEN OLD.`name` IS NOT NEW.`name` OR OLD.`sku` IS NOT NEW.`sku` OR OLD.`product_id` IS NOT NEW.`product_id`
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`product_id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) SELECT (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = p.`id`), p.`name`, trim(coalesce(p.`sku`, '') || ' ' || coalesce((SELECT group_concat(v.`sku`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), '')), coalesce(json_extract(p.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(p.`related`, '$.categories')), ''), coalesce((SELECT group_concat(v.`name`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), ''), coalesce(p.`description`, '') FROM `products` p WHERE p.`id` = NEW.`product_id`;
END;

CREATE TRIGGER `product_variants_bump_catalogue_delete` AFTER DELETE ON `product_variants`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_variants_bump_catalogue_insert` AFTER INSERT ON `product_variants`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_variants_bump_catalogue_update` AFTER UPDATE ON `product_variants`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_variants_bump_quote_delete` AFTER DELETE ON `product_variants`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_variants_bump_quote_update` AFTER UPDATE OF `id`, `product_id`, `name`, `sku`, `options`, `price`, `weight`, `prices` ON `product_variants`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `product_variants_related_delete` AFTER DELETE ON `product_variants`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (OLD.`product_id`);
END;

CREATE TRIGGER `product_variants_related_insert` AFTER INSERT ON `product_variants`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`product_id`);
END;

CREATE TRIGGER `product_variants_related_stock` AFTER UPDATE OF `stock`, `updated_at` ON `product_variants`
BEGIN
  UPDATE `products` SET `related` = (
    SELECT json_set(`products`.`related`, '$.variants[' || e.`key` || '].stock', NEW.`stock`, '$.variants[' || e.`key` || '].updatedAt', NEW.`updated_at`)
    FROM json_each(`products`.`related`, '$.variants') e WHERE json_extract(e.`value`, '$.id') = NEW.`id`
  )
  WHERE `id` = NEW.`product_id` AND EXISTS (SELECT 1 FROM json_each(`products`.`related`, '$.variants') e WHERE json_extract(e.`value`, '$.id') = NEW.`id`);
END;

CREATE TRIGGER `product_variants_related_update` AFTER UPDATE OF `id`, `product_id`, `sku`, `name`, `options`, `price`, `compare_at_price`, `weight`, `prices`, `low_stock_threshold`, `position`, `created_at` ON `product_variants`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`product_id`);
END;

CREATE TRIGGER `product_variants_stock_guard` BEFORE UPDATE OF `stock` ON `product_variants`
WHEN NEW.`stock` < 0
BEGIN
  SELECT RAISE(ABORT, 'guard:insufficient_stock');
END;

CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text,
	`price` integer NOT NULL,
	`compare_at_price` integer,
	`sku` text,
	`status` text DEFAULT 'draft' NOT NULL,
	`brand_id` text,
	`vendor_id` text,
	`images` text DEFAULT '[]' NOT NULL,
	`attributes` text DEFAULT '{}' NOT NULL,
	`low_stock_threshold` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `related` text DEFAULT '{"brand":null,"vendor":null,"categories":[],"variants":[]}' NOT NULL, `media` text DEFAULT '[]' NOT NULL, `tax_class` text DEFAULT 'standard' NOT NULL, `prices` text DEFAULT '{}' NOT NULL, `gift_card` integer DEFAULT false NOT NULL, `variant_prices` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE set null
);

CREATE INDEX `products_brand_idx` ON `products` (`brand_id`);
CREATE INDEX `products_created_idx` ON `products` (`created_at`,`id`);
CREATE INDEX `products_name_idx` ON `products` (`name`,`id`);
CREATE INDEX `products_price_idx` ON `products` (`price`,`id`);
CREATE UNIQUE INDEX `products_sku_unique` ON `products` (`sku`);
CREATE UNIQUE INDEX `products_slug_unique` ON `products` (`slug`);
CREATE INDEX `products_status_created_idx` ON `products` (`status`,`created_at`,`id`);
CREATE INDEX `products_status_name_idx` ON `products` (`status`,`name`,`id`);
CREATE INDEX `products_status_price_idx` ON `products` (`status`,`price`,`id`);
CREATE INDEX `products_status_updated_idx` ON `products` (`status`,`updated_at`,`id`);
CREATE INDEX `products_updated_idx` ON `products` (`updated_at`,`id`);
CREATE INDEX `products_vendor_idx` ON `products` (`vendor_id`);

CREATE TRIGGER `audit_products_create` AFTER INSERT ON `products`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'product', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'slug', json_object('after', NEW.`slug`),
    'description', json_object('after', NEW.`description`),
    'price', json_object('after', NEW.`price`),
    'compareAtPrice', json_object('after', NEW.`compare_at_price`),
    'sku', json_object('after', NEW.`sku`),
    'status', json_object('after', NEW.`status`),
    'brandId', json_object('after', NEW.`brand_id`),
    'vendorId', json_object('after', NEW.`vendor_id`),
    'images', json_object('after', iif(json_valid(NEW.`images`), json(NEW.`images`), NEW.`images`)),
    'attributes', json_object('after', iif(json_valid(NEW.`attributes`), json(NEW.`attributes`), NEW.`attributes`)),
    'lowStockThreshold', json_object('after', NEW.`low_stock_threshold`),
    'taxClass', json_object('after', NEW.`tax_class`),
    'giftCard', json_object('after', iif(NEW.`gift_card` = 1, json('true'), iif(NEW.`gift_card` = 0, json('false'), NEW.`gift_card`))),
    'prices', json_object('after', iif(json_valid(NEW.`prices`), json(NEW.`prices`), NEW.`prices`))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_products_delete` AFTER DELETE ON `products`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'product', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'slug', json_object('before', OLD.`slug`),
    'description', json_object('before', OLD.`description`),
    'price', json_object('before', OLD.`price`),
    'compareAtPrice', json_object('before', OLD.`compare_at_price`),
    'sku', json_object('before', OLD.`sku`),
    'status', json_object('before', OLD.`status`),
    'brandId', json_object('before', OLD.`brand_id`),
    'vendorId', json_object('before', OLD.`vendor_id`),
    'images', json_object('before', iif(json_valid(OLD.`images`), json(OLD.`images`), OLD.`images`)),
    'attributes', json_object('before', iif(json_valid(OLD.`attributes`), json(OLD.`attributes`), OLD.`attributes`)),
    'lowStockThreshold', json_object('before', OLD.`low_stock_threshold`),
    'taxClass', json_object('before', OLD.`tax_class`),
    'giftCard', json_object('before', iif(OLD.`gift_card` = 1, json('true'), iif(OLD.`gift_card` = 0, json('false'), OLD.`gift_card`))),
    'prices', json_object('before', iif(json_valid(OLD.`prices`), json(OLD.`prices`), OLD.`prices`))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_products_update` AFTER UPDATE OF `id`, `name`, `slug`, `description`, `price`, `compare_at_price`, `sku`, `status`, `brand_id`, `vendor_id`, `images`, `attributes`, `low_stock_threshold`, `tax_class`, `gift_card`, `prices` ON `products`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`slug` IS NOT NEW.`slug` OR OLD.`description` IS NOT NEW.`description` OR OLD.`price` IS NOT NEW.`price` OR OLD.`compare_at_price` IS NOT NEW.`compare_at_price` OR OLD.`sku` IS NOT NEW.`sku` OR OLD.`status` IS NOT NEW.`status` OR OLD.`brand_id` IS NOT NEW.`brand_id` OR OLD.`vendor_id` IS NOT NEW.`vendor_id` OR OLD.`images` IS NOT NEW.`images` OR OLD.`attributes` IS NOT NEW.`attributes` OR OLD.`low_stock_threshold` IS NOT NEW.`low_stock_threshold` OR OLD.`tax_class` IS NOT NEW.`tax_class` OR OLD.`gift_card` IS NOT NEW.`gift_card` OR OLD.`prices` IS NOT NEW.`prices`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'product', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'slug', iif(OLD.`slug` IS NOT NEW.`slug`, json_object('before', OLD.`slug`, 'after', NEW.`slug`), NULL),
    'description', iif(OLD.`description` IS NOT NEW.`description`, json_object('before', OLD.`description`, 'after', NEW.`description`), NULL),
    'price', iif(OLD.`price` IS NOT NEW.`price`, json_object('before', OLD.`price`, 'after', NEW.`price`), NULL),
    'compareAtPrice', iif(OLD.`compare_at_price` IS NOT NEW.`compare_at_price`, json_object('before', OLD.`compare_at_price`, 'after', NEW.`compare_at_price`), NULL),
    'sku', iif(OLD.`sku` IS NOT NEW.`sku`, json_object('before', OLD.`sku`, 'after', NEW.`sku`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'brandId', iif(OLD.`brand_id` IS NOT NEW.`brand_id`, json_object('before', OLD.`brand_id`, 'after', NEW.`brand_id`), NULL),
    'vendorId', iif(OLD.`vendor_id` IS NOT NEW.`vendor_id`, json_object('before', OLD.`vendor_id`, 'after', NEW.`vendor_id`), NULL),
    'images', iif(OLD.`images` IS NOT NEW.`images`, json_object('before', iif(json_valid(OLD.`images`), json(OLD.`images`), OLD.`images`), 'after', iif(json_valid(NEW.`images`), json(NEW.`images`), NEW.`images`)), NULL),
    'attributes', iif(OLD.`attributes` IS NOT NEW.`attributes`, json_object('before', iif(json_valid(OLD.`attributes`), json(OLD.`attributes`), OLD.`attributes`), 'after', iif(json_valid(NEW.`attributes`), json(NEW.`attributes`), NEW.`attributes`)), NULL),
    'lowStockThreshold', iif(OLD.`low_stock_threshold` IS NOT NEW.`low_stock_threshold`, json_object('before', OLD.`low_stock_threshold`, 'after', NEW.`low_stock_threshold`), NULL),
    'taxClass', iif(OLD.`tax_class` IS NOT NEW.`tax_class`, json_object('before', OLD.`tax_class`, 'after', NEW.`tax_class`), NULL),
    'giftCard', iif(OLD.`gift_card` IS NOT NEW.`gift_card`, json_object('before', iif(OLD.`gift_card` = 1, json('true'), iif(OLD.`gift_card` = 0, json('false'), OLD.`gift_card`)), 'after', iif(NEW.`gift_card` = 1, json('true'), iif(NEW.`gift_card` = 0, json('false'), NEW.`gift_card`))), NULL),
    'prices', iif(OLD.`prices` IS NOT NEW.`prices`, json_object('before', iif(json_valid(OLD.`prices`), json(OLD.`prices`), OLD.`prices`), 'after', iif(json_valid(NEW.`prices`), json(NEW.`prices`), NEW.`prices`)), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `category_listing_product_delete` AFTER DELETE ON `products`
BEGIN
  DELETE FROM `category_listing` WHERE `product_id` = OLD.`id`;
END;

CREATE TRIGGER `category_listing_product_update` AFTER UPDATE OF `status`, `created_at`, `updated_at`, `name`, `price`, `sku` ON `products`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`created_at` IS NOT NEW.`created_at` OR OLD.`updated_at` IS NOT NEW.`updated_at`
  OR OLD.`name` IS NOT NEW.`name` OR OLD.`price` IS NOT NEW.`price` OR OLD.`sku` IS NOT NEW.`sku`
BEGIN
  UPDATE `category_listing`
    SET `status` = NEW.`status`, `created_at` = NEW.`created_at`, `updated_at` = NEW.`updated_at`,
        `name` = NEW.`name`, `price` = NEW.`price`, `sku` = NEW.`sku`
    WHERE `product_id` = NEW.`id`;
END;

CREATE TRIGGER `product_facet_counts_delete` AFTER DELETE ON `products`
BEGIN
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) SELECT 'brand', OLD.`brand_id`, OLD.`status`, -1 WHERE OLD.`brand_id` IS NOT NULL
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) VALUES ('price', CASE WHEN OLD.`price` < 1000 THEN '0' WHEN OLD.`price` < 2500 THEN '1' WHEN OLD.`price` < 5000 THEN '2' WHEN OLD.`price` < 10000 THEN '3' WHEN OLD.`price` < 25000 THEN '4' WHEN OLD.`price` < 50000 THEN '5' ELSE '6' END, OLD.`status`, -1)
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
END;

CREATE TRIGGER `product_facet_counts_insert` AFTER INSERT ON `products`
BEGIN
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) SELECT 'brand', NEW.`brand_id`, NEW.`status`, 1 WHERE NEW.`brand_id` IS NOT NULL
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) VALUES ('price', CASE WHEN NEW.`price` < 1000 THEN '0' WHEN NEW.`price` < 2500 THEN '1' WHEN NEW.`price` < 5000 THEN '2' WHEN NEW.`price` < 10000 THEN '3' WHEN NEW.`price` < 25000 THEN '4' WHEN NEW.`price` < 50000 THEN '5' ELSE '6' END, NEW.`status`, 1)
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
END;

CREATE TRIGGER `product_facet_counts_update` AFTER UPDATE OF `status`, `brand_id`, `price` ON `products`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`brand_id` IS NOT NEW.`brand_id` OR (CASE WHEN OLD.`price` < 1000 THEN '0' WHEN OLD.`price` < 2500 THEN '1' WHEN OLD.`price` < 5000 THEN '2' WHEN OLD.`price` < 10000 THEN '3' WHEN OLD.`price` < 25000 THEN '4' WHEN OLD.`price` < 50000 THEN '5' ELSE '6' END) IS NOT (CASE WHEN NEW.`price` < 1000 THEN '0' WHEN NEW.`price` < 2500 THEN '1' WHEN NEW.`price` < 5000 THEN '2' WHEN NEW.`price` < 10000 THEN '3' WHEN NEW.`price` < 25000 THEN '4' WHEN NEW.`price` < 50000 THEN '5' ELSE '6' END)
BEGIN
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) SELECT 'brand', OLD.`brand_id`, OLD.`status`, -1 WHERE OLD.`brand_id` IS NOT NULL
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) VALUES ('price', CASE WHEN OLD.`price` < 1000 THEN '0' WHEN OLD.`price` < 2500 THEN '1' WHEN OLD.`price` < 5000 THEN '2' WHEN OLD.`price` < 10000 THEN '3' WHEN OLD.`price` < 25000 THEN '4' WHEN OLD.`price` < 50000 THEN '5' ELSE '6' END, OLD.`status`, -1)
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) SELECT 'brand', NEW.`brand_id`, NEW.`status`, 1 WHERE NEW.`brand_id` IS NOT NULL
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) VALUES ('price', CASE WHEN NEW.`price` < 1000 THEN '0' WHEN NEW.`price` < 2500 THEN '1' WHEN NEW.`price` < 5000 THEN '2' WHEN NEW.`price` < 10000 THEN '3' WHEN NEW.`price` < 25000 THEN '4' WHEN NEW.`price` < 50000 THEN '5' ELSE '6' END, NEW.`status`, 1)
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
END;

CREATE TRIGGER `product_search_delete` AFTER DELETE ON `products`
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = OLD.`id`);
  DELETE FROM `product_search_rows` WHERE `product_id` = OLD.`id`;
END;

CREATE TRIGGER `product_search_insert` AFTER INSERT ON `products`
BEGIN
  INSERT INTO `product_search_rows` (`product_id`) VALUES (NEW.`id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) VALUES ((SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`id`), NEW.`name`, trim(coalesce(NEW.`sku`, '') || ' ' || coalesce((SELECT group_concat(v.`sku`, ' ') FROM `product_variants` v WHERE v.`product_id` = NEW.`id`), '')), coalesce(json_extract(NEW.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(NEW.`related`, '$.categories')), ''), coalesce((SELECT group_concat(v.`name`, ' ') FROM `product_variants` v WHERE v.`product_id` = NEW.`id`), ''), coalesce(NEW.`description`, ''));
END;

CREATE TRIGGER `product_search_update` AFTER UPDATE OF `name`, `description`, `sku`, `related` ON `products`
WHEN OLD.`name` IS NOT NEW.`name` OR OLD.`description` IS NOT NEW.`description` OR OLD.`sku` IS NOT NEW.`sku`
  OR json_extract(OLD.`related`, '$.brand.name') IS NOT json_extract(NEW.`related`, '$.brand.name')
  OR json_extract(OLD.`related`, '$.categories') IS NOT json_extract(NEW.`related`, '$.categories')
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) VALUES ((SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`id`), NEW.`name`, trim(coalesce(NEW.`sku`, '') || ' ' || coalesce((SELECT group_concat(v.`sku`, ' ') FROM `product_variants` v WHERE v.`product_id` = NEW.`id`), '')), coalesce(json_extract(NEW.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(NEW.`related`, '$.categories')), ''), coalesce((SELECT group_concat(v.`name`, ' ') FROM `product_variants` v WHERE v.`product_id` = NEW.`id`), ''), coalesce(NEW.`description`, ''));
END;

CREATE TRIGGER `products_bump_catalogue_delete` AFTER DELETE ON `products`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `products_bump_catalogue_insert` AFTER INSERT ON `products`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `products_bump_catalogue_update` AFTER UPDATE ON `products`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `products_bump_quote_brand` AFTER UPDATE OF `brand_id` ON `products`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `products_bump_quote_delete` AFTER DELETE ON `products`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `products_bump_quote_update` AFTER UPDATE OF `id`, `name`, `status`, `vendor_id`, `tax_class` ON `products`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `products_category_counts_delete` BEFORE DELETE ON `products`
BEGIN
  UPDATE `category_product_counts` SET `count` = `count` - 1
    WHERE `status` = OLD.`status` AND `category_id` IN (
      SELECT t.`ancestor_id` FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id` WHERE pc.`product_id` = OLD.`id`
    );
END;

CREATE TRIGGER `products_category_counts_status` AFTER UPDATE OF `status` ON `products`
WHEN OLD.`status` IS NOT NEW.`status`
BEGIN
  UPDATE `category_product_counts` SET `count` = `count` - 1
    WHERE `status` = OLD.`status` AND `category_id` IN (
      SELECT t.`ancestor_id` FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id` WHERE pc.`product_id` = NEW.`id`
    );
  INSERT INTO `category_product_counts` (`category_id`, `status`, `count`)
    SELECT DISTINCT t.`ancestor_id`, NEW.`status`, 1
    FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id` WHERE pc.`product_id` = NEW.`id`
    ON CONFLICT (`category_id`, `status`) DO UPDATE SET `count` = `count` + 1;
END;

CREATE TRIGGER `products_count_delete` AFTER DELETE ON `products`
BEGIN
  UPDATE `product_status_counts` SET `count` = `count` - 1 WHERE `status` = OLD.`status`;
END;

CREATE TRIGGER `products_count_insert` AFTER INSERT ON `products`
BEGIN
  INSERT INTO `product_status_counts` (`status`, `count`) VALUES (NEW.`status`, 1)
    ON CONFLICT (`status`) DO UPDATE SET `count` = `count` + 1;
END;

CREATE TRIGGER `products_count_status` AFTER UPDATE OF `status` ON `products`
WHEN OLD.`status` IS NOT NEW.`status`
BEGIN
  UPDATE `product_status_counts` SET `count` = `count` - 1 WHERE `status` = OLD.`status`;
  INSERT INTO `product_status_counts` (`status`, `count`) VALUES (NEW.`status`, 1)
    ON CONFLICT (`status`) DO UPDATE SET `count` = `count` + 1;
END;

CREATE TRIGGER `products_related_insert` AFTER INSERT ON `products`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`id`);
END;

CREATE TRIGGER `products_related_refs` AFTER UPDATE OF `brand_id`, `vendor_id` ON `products`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`id`);
END;

CREATE TABLE `promotion_usages` (
	`id` text PRIMARY KEY NOT NULL,
	`promotion_id` text NOT NULL,
	`order_id` text NOT NULL,
	`customer_key` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`promotion_id`) REFERENCES `promotions`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `promotion_usages_customer_idx` ON `promotion_usages` (`promotion_id`,`customer_key`);

CREATE TRIGGER `promotion_usages_customer_guard` BEFORE INSERT ON `promotion_usages`
WHEN (SELECT `per_customer_limit` FROM `promotions` WHERE `id` = NEW.`promotion_id`) IS NOT NULL
  AND (SELECT count(*) FROM `promotion_usages` WHERE `promotion_id` = NEW.`promotion_id` AND `customer_key` = NEW.`customer_key`)
    >= (SELECT `per_customer_limit` FROM `promotions` WHERE `id` = NEW.`promotion_id`)
BEGIN
  SELECT RAISE(ABORT, 'guard:promotion_customer_limit');
END;

CREATE TABLE `promotions` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`code` text,
	`type` text NOT NULL,
	`value` text DEFAULT '0' NOT NULL,
	`currency_amounts` text DEFAULT '{}' NOT NULL,
	`target` text DEFAULT 'order' NOT NULL,
	`buy_x_get_y` text,
	`free_shipping` text,
	`min_subtotal` integer,
	`min_quantity` integer,
	`include` text DEFAULT '{"productIds":[],"categoryIds":[],"brandIds":[]}' NOT NULL,
	`exclude` text DEFAULT '{"productIds":[],"categoryIds":[],"brandIds":[]}' NOT NULL,
	`customer_group_ids` text DEFAULT '[]' NOT NULL,
	`currencies` text DEFAULT '[]' NOT NULL,
	`starts_at` text,
	`ends_at` text,
	`usage_limit` integer,
	`per_customer_limit` integer,
	`times_used` integer DEFAULT 0 NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`combines_with_promotions` integer DEFAULT false NOT NULL,
	`combines_with_codes` integer DEFAULT false NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
, `is_coupon` integer DEFAULT false NOT NULL);

CREATE UNIQUE INDEX `promotions_code_unique` ON `promotions` (`code`);
CREATE INDEX `promotions_created_idx` ON `promotions` (`created_at`,`id`);

CREATE TRIGGER `audit_promotions_create` AFTER INSERT ON `promotions`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, iif(NEW.`is_coupon` = 1, 'coupon', 'promotion'), NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'description', json_object('after', NEW.`description`),
    'code', json_object('after', NEW.`code`),
    'type', json_object('after', NEW.`type`),
    'value', json_object('after', NEW.`value`),
    'currencyAmounts', json_object('after', iif(json_valid(NEW.`currency_amounts`), json(NEW.`currency_amounts`), NEW.`currency_amounts`)),
    'target', json_object('after', NEW.`target`),
    'buyXGetY', json_object('after', iif(json_valid(NEW.`buy_x_get_y`), json(NEW.`buy_x_get_y`), NEW.`buy_x_get_y`)),
    'freeShipping', json_object('after', iif(json_valid(NEW.`free_shipping`), json(NEW.`free_shipping`), NEW.`free_shipping`)),
    'minSubtotal', json_object('after', NEW.`min_subtotal`),
    'minQuantity', json_object('after', NEW.`min_quantity`),
    'include', json_object('after', iif(json_valid(NEW.`include`), json(NEW.`include`), NEW.`include`)),
    'exclude', json_object('after', iif(json_valid(NEW.`exclude`), json(NEW.`exclude`), NEW.`exclude`)),
    'customerGroupIds', json_object('after', iif(json_valid(NEW.`customer_group_ids`), json(NEW.`customer_group_ids`), NEW.`customer_group_ids`)),
    'currencies', json_object('after', iif(json_valid(NEW.`currencies`), json(NEW.`currencies`), NEW.`currencies`)),
    'startsAt', json_object('after', NEW.`starts_at`),
    'endsAt', json_object('after', NEW.`ends_at`),
    'usageLimit', json_object('after', NEW.`usage_limit`),
    'perCustomerLimit', json_object('after', NEW.`per_customer_limit`),
    'timesUsed', json_object('after', NEW.`times_used`),
    'priority', json_object('after', NEW.`priority`),
    'combinesWithPromotions', json_object('after', iif(NEW.`combines_with_promotions` = 1, json('true'), iif(NEW.`combines_with_promotions` = 0, json('false'), NEW.`combines_with_promotions`))),
    'combinesWithCodes', json_object('after', iif(NEW.`combines_with_codes` = 1, json('true'), iif(NEW.`combines_with_codes` = 0, json('false'), NEW.`combines_with_codes`))),
    'active', json_object('after', iif(NEW.`active` = 1, json('true'), iif(NEW.`active` = 0, json('false'), NEW.`active`))),
    'isCoupon', json_object('after', iif(NEW.`is_coupon` = 1, json('true'), iif(NEW.`is_coupon` = 0, json('false'), NEW.`is_coupon`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_promotions_delete` AFTER DELETE ON `promotions`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, iif(OLD.`is_coupon` = 1, 'coupon', 'promotion'), OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'description', json_object('before', OLD.`description`),
    'code', json_object('before', OLD.`code`),
    'type', json_object('before', OLD.`type`),
    'value', json_object('before', OLD.`value`),
    'currencyAmounts', json_object('before', iif(json_valid(OLD.`currency_amounts`), json(OLD.`currency_amounts`), OLD.`currency_amounts`)),
    'target', json_object('before', OLD.`target`),
    'buyXGetY', json_object('before', iif(json_valid(OLD.`buy_x_get_y`), json(OLD.`buy_x_get_y`), OLD.`buy_x_get_y`)),
    'freeShipping', json_object('before', iif(json_valid(OLD.`free_shipping`), json(OLD.`free_shipping`), OLD.`free_shipping`)),
    'minSubtotal', json_object('before', OLD.`min_subtotal`),
    'minQuantity', json_object('before', OLD.`min_quantity`),
    'include', json_object('before', iif(json_valid(OLD.`include`), json(OLD.`include`), OLD.`include`)),
    'exclude', json_object('before', iif(json_valid(OLD.`exclude`), json(OLD.`exclude`), OLD.`exclude`)),
    'customerGroupIds', json_object('before', iif(json_valid(OLD.`customer_group_ids`), json(OLD.`customer_group_ids`), OLD.`customer_group_ids`)),
    'currencies', json_object('before', iif(json_valid(OLD.`currencies`), json(OLD.`currencies`), OLD.`currencies`)),
    'startsAt', json_object('before', OLD.`starts_at`),
    'endsAt', json_object('before', OLD.`ends_at`),
    'usageLimit', json_object('before', OLD.`usage_limit`),
    'perCustomerLimit', json_object('before', OLD.`per_customer_limit`),
    'timesUsed', json_object('before', OLD.`times_used`),
    'priority', json_object('before', OLD.`priority`),
    'combinesWithPromotions', json_object('before', iif(OLD.`combines_with_promotions` = 1, json('true'), iif(OLD.`combines_with_promotions` = 0, json('false'), OLD.`combines_with_promotions`))),
    'combinesWithCodes', json_object('before', iif(OLD.`combines_with_codes` = 1, json('true'), iif(OLD.`combines_with_codes` = 0, json('false'), OLD.`combines_with_codes`))),
    'active', json_object('before', iif(OLD.`active` = 1, json('true'), iif(OLD.`active` = 0, json('false'), OLD.`active`))),
    'isCoupon', json_object('before', iif(OLD.`is_coupon` = 1, json('true'), iif(OLD.`is_coupon` = 0, json('false'), OLD.`is_coupon`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_promotions_update` AFTER UPDATE OF `id`, `name`, `description`, `code`, `type`, `value`, `currency_amounts`, `target`, `buy_x_get_y`, `free_shipping`, `min_subtotal`, `min_quantity`, `include`, `exclude`, `customer_group_ids`, `currencies`, `starts_at`, `ends_at`, `usage_limit`, `per_customer_limit`, `times_used`, `priority`, `combines_with_promotions`, `combines_with_codes`, `active`, `is_coupon` ON `promotions`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`description` IS NOT NEW.`description` OR OLD.`code` IS NOT NEW.`code` OR OLD.`type` IS NOT NEW.`type` OR OLD.`value` IS NOT NEW.`value` OR OLD.`currency_amounts` IS NOT NEW.`currency_amounts` OR OLD.`target` IS NOT NEW.`target` OR OLD.`buy_x_get_y` IS NOT NEW.`buy_x_get_y` OR OLD.`free_shipping` IS NOT NEW.`free_shipping` OR OLD.`min_subtotal` IS NOT NEW.`min_subtotal` OR OLD.`min_quantity` IS NOT NEW.`min_quantity` OR OLD.`include` IS NOT NEW.`include` OR OLD.`exclude` IS NOT NEW.`exclude` OR OLD.`customer_group_ids` IS NOT NEW.`customer_group_ids` OR OLD.`currencies` IS NOT NEW.`currencies` OR OLD.`starts_at` IS NOT NEW.`starts_at` OR OLD.`ends_at` IS NOT NEW.`ends_at` OR OLD.`usage_limit` IS NOT NEW.`usage_limit` OR OLD.`per_customer_limit` IS NOT NEW.`per_customer_limit` OR OLD.`times_used` IS NOT NEW.`times_used` OR OLD.`priority` IS NOT NEW.`priority` OR OLD.`combines_with_promotions` IS NOT NEW.`combines_with_promotions` OR OLD.`combines_with_codes` IS NOT NEW.`combines_with_codes` OR OLD.`active` IS NOT NEW.`active` OR OLD.`is_coupon` IS NOT NEW.`is_coupon`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, iif(NEW.`is_coupon` = 1, 'coupon', 'promotion'), NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'description', iif(OLD.`description` IS NOT NEW.`description`, json_object('before', OLD.`description`, 'after', NEW.`description`), NULL),
    'code', iif(OLD.`code` IS NOT NEW.`code`, json_object('before', OLD.`code`, 'after', NEW.`code`), NULL),
    'type', iif(OLD.`type` IS NOT NEW.`type`, json_object('before', OLD.`type`, 'after', NEW.`type`), NULL),
    'value', iif(OLD.`value` IS NOT NEW.`value`, json_object('before', OLD.`value`, 'after', NEW.`value`), NULL),
    'currencyAmounts', iif(OLD.`currency_amounts` IS NOT NEW.`currency_amounts`, json_object('before', iif(json_valid(OLD.`currency_amounts`), json(OLD.`currency_amounts`), OLD.`currency_amounts`), 'after', iif(json_valid(NEW.`currency_amounts`), json(NEW.`currency_amounts`), NEW.`currency_amounts`)), NULL),
    'target', iif(OLD.`target` IS NOT NEW.`target`, json_object('before', OLD.`target`, 'after', NEW.`target`), NULL),
    'buyXGetY', iif(OLD.`buy_x_get_y` IS NOT NEW.`buy_x_get_y`, json_object('before', iif(json_valid(OLD.`buy_x_get_y`), json(OLD.`buy_x_get_y`), OLD.`buy_x_get_y`), 'after', iif(json_valid(NEW.`buy_x_get_y`), json(NEW.`buy_x_get_y`), NEW.`buy_x_get_y`)), NULL),
    'freeShipping', iif(OLD.`free_shipping` IS NOT NEW.`free_shipping`, json_object('before', iif(json_valid(OLD.`free_shipping`), json(OLD.`free_shipping`), OLD.`free_shipping`), 'after', iif(json_valid(NEW.`free_shipping`), json(NEW.`free_shipping`), NEW.`free_shipping`)), NULL),
    'minSubtotal', iif(OLD.`min_subtotal` IS NOT NEW.`min_subtotal`, json_object('before', OLD.`min_subtotal`, 'after', NEW.`min_subtotal`), NULL),
    'minQuantity', iif(OLD.`min_quantity` IS NOT NEW.`min_quantity`, json_object('before', OLD.`min_quantity`, 'after', NEW.`min_quantity`), NULL),
    'include', iif(OLD.`include` IS NOT NEW.`include`, json_object('before', iif(json_valid(OLD.`include`), json(OLD.`include`), OLD.`include`), 'after', iif(json_valid(NEW.`include`), json(NEW.`include`), NEW.`include`)), NULL),
    'exclude', iif(OLD.`exclude` IS NOT NEW.`exclude`, json_object('before', iif(json_valid(OLD.`exclude`), json(OLD.`exclude`), OLD.`exclude`), 'after', iif(json_valid(NEW.`exclude`), json(NEW.`exclude`), NEW.`exclude`)), NULL),
    'customerGroupIds', iif(OLD.`customer_group_ids` IS NOT NEW.`customer_group_ids`, json_object('before', iif(json_valid(OLD.`customer_group_ids`), json(OLD.`customer_group_ids`), OLD.`customer_group_ids`), 'after', iif(json_valid(NEW.`customer_group_ids`), json(NEW.`customer_group_ids`), NEW.`customer_group_ids`)), NULL),
    'currencies', iif(OLD.`currencies` IS NOT NEW.`currencies`, json_object('before', iif(json_valid(OLD.`currencies`), json(OLD.`currencies`), OLD.`currencies`), 'after', iif(json_valid(NEW.`currencies`), json(NEW.`currencies`), NEW.`currencies`)), NULL),
    'startsAt', iif(OLD.`starts_at` IS NOT NEW.`starts_at`, json_object('before', OLD.`starts_at`, 'after', NEW.`starts_at`), NULL),
    'endsAt', iif(OLD.`ends_at` IS NOT NEW.`ends_at`, json_object('before', OLD.`ends_at`, 'after', NEW.`ends_at`), NULL),
    'usageLimit', iif(OLD.`usage_limit` IS NOT NEW.`usage_limit`, json_object('before', OLD.`usage_limit`, 'after', NEW.`usage_limit`), NULL),
    'perCustomerLimit', iif(OLD.`per_customer_limit` IS NOT NEW.`per_customer_limit`, json_object('before', OLD.`per_customer_limit`, 'after', NEW.`per_customer_limit`), NULL),
    'timesUsed', iif(OLD.`times_used` IS NOT NEW.`times_used`, json_object('before', OLD.`times_used`, 'after', NEW.`times_used`), NULL),
    'priority', iif(OLD.`priority` IS NOT NEW.`priority`, json_object('before', OLD.`priority`, 'after', NEW.`priority`), NULL),
    'combinesWithPromotions', iif(OLD.`combines_with_promotions` IS NOT NEW.`combines_with_promotions`, json_object('before', iif(OLD.`combines_with_promotions` = 1, json('true'), iif(OLD.`combines_with_promotions` = 0, json('false'), OLD.`combines_with_promotions`)), 'after', iif(NEW.`combines_with_promotions` = 1, json('true'), iif(NEW.`combines_with_promotions` = 0, json('false'), NEW.`combines_with_promotions`))), NULL),
    'combinesWithCodes', iif(OLD.`combines_with_codes` IS NOT NEW.`combines_with_codes`, json_object('before', iif(OLD.`combines_with_codes` = 1, json('true'), iif(OLD.`combines_with_codes` = 0, json('false'), OLD.`combines_with_codes`)), 'after', iif(NEW.`combines_with_codes` = 1, json('true'), iif(NEW.`combines_with_codes` = 0, json('false'), NEW.`combines_with_codes`))), NULL),
    'active', iif(OLD.`active` IS NOT NEW.`active`, json_object('before', iif(OLD.`active` = 1, json('true'), iif(OLD.`active` = 0, json('false'), OLD.`active`)), 'after', iif(NEW.`active` = 1, json('true'), iif(NEW.`active` = 0, json('false'), NEW.`active`))), NULL),
    'isCoupon', iif(OLD.`is_coupon` IS NOT NEW.`is_coupon`, json_object('before', iif(OLD.`is_coupon` = 1, json('true'), iif(OLD.`is_coupon` = 0, json('false'), OLD.`is_coupon`)), 'after', iif(NEW.`is_coupon` = 1, json('true'), iif(NEW.`is_coupon` = 0, json('false'), NEW.`is_coupon`))), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `promotions_bump_quote_delete` AFTER DELETE ON `promotions`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `promotions_bump_quote_insert` AFTER INSERT ON `promotions`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `promotions_bump_quote_update` AFTER UPDATE OF `id`, `name`, `code`, `type`, `value`, `currency_amounts`, `target`, `buy_x_get_y`, `free_shipping`, `min_subtotal`, `min_quantity`, `include`, `exclude`, `customer_group_ids`, `currencies`, `starts_at`, `ends_at`, `usage_limit`, `per_customer_limit`, `priority`, `combines_with_promotions`, `combines_with_codes`, `active` ON `promotions`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `promotions_bump_quote_use_given_back` AFTER UPDATE OF `times_used` ON `promotions`
WHEN NEW.`usage_limit` IS NOT NULL AND NEW.`times_used` < OLD.`times_used` AND OLD.`times_used` >= NEW.`usage_limit`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `promotions_usage_guard` BEFORE UPDATE OF `times_used` ON `promotions`
WHEN NEW.`usage_limit` IS NOT NULL AND NEW.`times_used` > NEW.`usage_limit`
BEGIN
  SELECT RAISE(ABORT, 'guard:promotion_usage_limit');
END;

CREATE TABLE `provider_events` (
	`provider` text NOT NULL,
	`id` text NOT NULL,
	`type` text NOT NULL,
	`handled_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`provider`, `id`)
);

CREATE INDEX `provider_events_handled_idx` ON `provider_events` (`handled_at`);

CREATE TABLE `quote_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);

CREATE TABLE `refund_lines` (
	`refund_id` text NOT NULL,
	`order_line_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`refund_id`, `order_line_id`),
	FOREIGN KEY (`refund_id`) REFERENCES `refunds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_line_id`) REFERENCES `order_lines`(`id`) ON UPDATE no action ON DELETE restrict
);

CREATE INDEX `refund_lines_order_line_idx` ON `refund_lines` (`order_line_id`);

CREATE TRIGGER `refund_lines_count` AFTER INSERT ON `refund_lines`
BEGIN
  UPDATE `order_lines` SET `quantity_refunded` = `quantity_refunded` + NEW.`quantity` WHERE `id` = NEW.`order_line_id`;
END;

CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`order_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`reason` text,
	`provider_reference` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `status` text DEFAULT 'completed' NOT NULL, `failure_reason` text, `request_key` text, `updated_at` text DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL, `destination` text DEFAULT 'payment' NOT NULL, `return_id` text, `shipping_amount` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE restrict
);

CREATE INDEX `refunds_payment_idx` ON `refunds` (`payment_id`,`created_at`);
CREATE INDEX `refunds_pending_idx` ON `refunds` (`updated_at`) WHERE `status` = 'pending';
CREATE INDEX `refunds_provider_reference_idx` ON `refunds` (`provider_reference`);
CREATE UNIQUE INDEX `refunds_request_key_idx` ON `refunds` (`request_key`);

CREATE TRIGGER `audit_refunds_create` AFTER INSERT ON `refunds`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'refund', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'paymentId', json_object('after', NEW.`payment_id`),
    'orderId', json_object('after', NEW.`order_id`),
    'amount', json_object('after', NEW.`amount`),
    'currency', json_object('after', NEW.`currency`),
    'reason', json_object('after', NEW.`reason`),
    'destination', json_object('after', NEW.`destination`),
    'returnId', json_object('after', NEW.`return_id`),
    'shippingAmount', json_object('after', NEW.`shipping_amount`),
    'providerReference', json_object('after', NEW.`provider_reference`),
    'status', json_object('after', NEW.`status`),
    'failureReason', json_object('after', NEW.`failure_reason`),
    'requestKey', json_object('after', NEW.`request_key`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_refunds_delete` AFTER DELETE ON `refunds`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'refund', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'paymentId', json_object('before', OLD.`payment_id`),
    'orderId', json_object('before', OLD.`order_id`),
    'amount', json_object('before', OLD.`amount`),
    'currency', json_object('before', OLD.`currency`),
    'reason', json_object('before', OLD.`reason`),
    'destination', json_object('before', OLD.`destination`),
    'returnId', json_object('before', OLD.`return_id`),
    'shippingAmount', json_object('before', OLD.`shipping_amount`),
    'providerReference', json_object('before', OLD.`provider_reference`),
    'status', json_object('before', OLD.`status`),
    'failureReason', json_object('before', OLD.`failure_reason`),
    'requestKey', json_object('before', OLD.`request_key`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_refunds_update` AFTER UPDATE OF `id`, `payment_id`, `order_id`, `amount`, `currency`, `reason`, `destination`, `return_id`, `shipping_amount`, `provider_reference`, `status`, `failure_reason`, `request_key` ON `refunds`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`payment_id` IS NOT NEW.`payment_id` OR OLD.`order_id` IS NOT NEW.`order_id` OR OLD.`amount` IS NOT NEW.`amount` OR OLD.`currency` IS NOT NEW.`currency` OR OLD.`reason` IS NOT NEW.`reason` OR OLD.`destination` IS NOT NEW.`destination` OR OLD.`return_id` IS NOT NEW.`return_id` OR OLD.`shipping_amount` IS NOT NEW.`shipping_amount` OR OLD.`provider_reference` IS NOT NEW.`provider_reference` OR OLD.`status` IS NOT NEW.`status` OR OLD.`failure_reason` IS NOT NEW.`failure_reason` OR OLD.`request_key` IS NOT NEW.`request_key`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'refund', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'paymentId', iif(OLD.`payment_id` IS NOT NEW.`payment_id`, json_object('before', OLD.`payment_id`, 'after', NEW.`payment_id`), NULL),
    'orderId', iif(OLD.`order_id` IS NOT NEW.`order_id`, json_object('before', OLD.`order_id`, 'after', NEW.`order_id`), NULL),
    'amount', iif(OLD.`amount` IS NOT NEW.`amount`, json_object('before', OLD.`amount`, 'after', NEW.`amount`), NULL),
    'currency', iif(OLD.`currency` IS NOT NEW.`currency`, json_object('before', OLD.`currency`, 'after', NEW.`currency`), NULL),
    'reason', iif(OLD.`reason` IS NOT NEW.`reason`, json_object('before', OLD.`reason`, 'after', NEW.`reason`), NULL),
    'destination', iif(OLD.`destination` IS NOT NEW.`destination`, json_object('before', OLD.`destination`, 'after', NEW.`destination`), NULL),
    'returnId', iif(OLD.`return_id` IS NOT NEW.`return_id`, json_object('before', OLD.`return_id`, 'after', NEW.`return_id`), NULL),
    'shippingAmount', iif(OLD.`shipping_amount` IS NOT NEW.`shipping_amount`, json_object('before', OLD.`shipping_amount`, 'after', NEW.`shipping_amount`), NULL),
    'providerReference', iif(OLD.`provider_reference` IS NOT NEW.`provider_reference`, json_object('before', OLD.`provider_reference`, 'after', NEW.`provider_reference`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'failureReason', iif(OLD.`failure_reason` IS NOT NEW.`failure_reason`, json_object('before', OLD.`failure_reason`, 'after', NEW.`failure_reason`), NULL),
    'requestKey', iif(OLD.`request_key` IS NOT NEW.`request_key`, json_object('before', OLD.`request_key`, 'after', NEW.`request_key`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `product_sales_refunded` AFTER UPDATE OF `status` ON `refunds`
WHEN NEW.`status` = 'completed' AND OLD.`status` != 'completed'
BEGIN
  UPDATE `product_sales_days` SET
    `units` = `units` - (SELECT coalesce(sum(rl.`quantity`), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_days`.`product_id`),
    `revenue` = `revenue` - (SELECT coalesce(sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_days`.`product_id`)
  WHERE `currency` = NEW.`currency` AND `day` = (SELECT substr(`created_at`, 1, 10) FROM `orders` WHERE `id` = NEW.`order_id` AND `status` != 'cancelled')
    AND `product_id` IN (SELECT ol.`product_id` FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id` WHERE rl.`refund_id` = NEW.`id`);
  UPDATE `product_sales_months` SET
    `units` = `units` - (SELECT coalesce(sum(rl.`quantity`), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_months`.`product_id`),
    `revenue` = `revenue` - (SELECT coalesce(sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_months`.`product_id`)
  WHERE `currency` = NEW.`currency` AND `month` = (SELECT substr(`created_at`, 1, 7) FROM `orders` WHERE `id` = NEW.`order_id` AND `status` != 'cancelled')
    AND `product_id` IN (SELECT ol.`product_id` FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id` WHERE rl.`refund_id` = NEW.`id`);
END;

CREATE TRIGGER `sales_refund_completed` AFTER UPDATE OF `status` ON `refunds` WHEN NEW.`status` = 'completed' AND OLD.`status` != 'completed'
BEGIN
  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `refunds`)
  SELECT substr(NEW.`updated_at`, 1, 10), NEW.`currency`, `o`.`minor_units`, NEW.`amount` FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id`
  ON CONFLICT (`currency`, `day`) DO UPDATE SET `refunds` = `refunds` + `excluded`.`refunds`;
END;

CREATE TRIGGER `sales_refund_written` AFTER INSERT ON `refunds` WHEN NEW.`status` = 'completed'
BEGIN
  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `refunds`)
  SELECT substr(NEW.`updated_at`, 1, 10), NEW.`currency`, `o`.`minor_units`, NEW.`amount` FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id`
  ON CONFLICT (`currency`, `day`) DO UPDATE SET `refunds` = `refunds` + `excluded`.`refunds`;
END;

CREATE TABLE `return_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`return_id` text NOT NULL,
	`order_line_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`reason` text NOT NULL,
	`restocked_quantity` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`return_id`) REFERENCES `returns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_line_id`) REFERENCES `order_lines`(`id`) ON UPDATE no action ON DELETE restrict
);

CREATE INDEX `return_lines_order_line_idx` ON `return_lines` (`order_line_id`);
CREATE INDEX `return_lines_return_idx` ON `return_lines` (`return_id`);

CREATE TRIGGER `audit_return_lines_create` AFTER INSERT ON `return_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'return_line', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'returnId', json_object('after', NEW.`return_id`),
    'orderLineId', json_object('after', NEW.`order_line_id`),
    'quantity', json_object('after', NEW.`quantity`),
    'reason', json_object('after', NEW.`reason`),
    'restockedQuantity', json_object('after', NEW.`restocked_quantity`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_return_lines_delete` AFTER DELETE ON `return_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'return_line', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'returnId', json_object('before', OLD.`return_id`),
    'orderLineId', json_object('before', OLD.`order_line_id`),
    'quantity', json_object('before', OLD.`quantity`),
    'reason', json_object('before', OLD.`reason`),
    'restockedQuantity', json_object('before', OLD.`restocked_quantity`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_return_lines_update` AFTER UPDATE OF `id`, `return_id`, `order_line_id`, `quantity`, `reason`, `restocked_quantity` ON `return_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`return_id` IS NOT NEW.`return_id` OR OLD.`order_line_id` IS NOT NEW.`order_line_id` OR OLD.`quantity` IS NOT NEW.`quantity` OR OLD.`reason` IS NOT NEW.`reason` OR OLD.`restocked_quantity` IS NOT NEW.`restocked_quantity`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'return_line', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'returnId', iif(OLD.`return_id` IS NOT NEW.`return_id`, json_object('before', OLD.`return_id`, 'after', NEW.`return_id`), NULL),
    'orderLineId', iif(OLD.`order_line_id` IS NOT NEW.`order_line_id`, json_object('before', OLD.`order_line_id`, 'after', NEW.`order_line_id`), NULL),
    'quantity', iif(OLD.`quantity` IS NOT NEW.`quantity`, json_object('before', OLD.`quantity`, 'after', NEW.`quantity`), NULL),
    'reason', iif(OLD.`reason` IS NOT NEW.`reason`, json_object('before', OLD.`reason`, 'after', NEW.`reason`), NULL),
    'restockedQuantity', iif(OLD.`restocked_quantity` IS NOT NEW.`restocked_quantity`, json_object('before', OLD.`restocked_quantity`, 'after', NEW.`restocked_quantity`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `return_lines_count` AFTER INSERT ON `return_lines`
BEGIN
  UPDATE `order_lines` SET `quantity_returned` = `quantity_returned` + NEW.`quantity` WHERE `id` = NEW.`order_line_id`;
END;

CREATE TABLE `returns` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`customer_id` text,
	`status` text DEFAULT 'requested' NOT NULL,
	`note` text,
	`resolution` text,
	`exchange_order_id` text,
	`requested_by` text NOT NULL,
	`approved_at` text,
	`received_at` text,
	`refunded_at` text,
	`closed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE restrict
);

CREATE INDEX `returns_created_idx` ON `returns` (`created_at`,`id`);
CREATE INDEX `returns_customer_created_idx` ON `returns` (`customer_id`,`created_at`);
CREATE INDEX `returns_order_idx` ON `returns` (`order_id`);
CREATE INDEX `returns_status_created_idx` ON `returns` (`status`,`created_at`,`id`);

CREATE TRIGGER `audit_returns_create` AFTER INSERT ON `returns`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'return', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'orderId', json_object('after', NEW.`order_id`),
    'customerId', json_object('after', NEW.`customer_id`),
    'status', json_object('after', NEW.`status`),
    'note', json_object('after', NEW.`note`),
    'resolution', json_object('after', NEW.`resolution`),
    'exchangeOrderId', json_object('after', NEW.`exchange_order_id`),
    'requestedBy', json_object('after', NEW.`requested_by`),
    'approvedAt', json_object('after', NEW.`approved_at`),
    'receivedAt', json_object('after', NEW.`received_at`),
    'refundedAt', json_object('after', NEW.`refunded_at`),
    'closedAt', json_object('after', NEW.`closed_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_returns_delete` AFTER DELETE ON `returns`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'return', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'orderId', json_object('before', OLD.`order_id`),
    'customerId', json_object('before', OLD.`customer_id`),
    'status', json_object('before', OLD.`status`),
    'note', json_object('before', OLD.`note`),
    'resolution', json_object('before', OLD.`resolution`),
    'exchangeOrderId', json_object('before', OLD.`exchange_order_id`),
    'requestedBy', json_object('before', OLD.`requested_by`),
    'approvedAt', json_object('before', OLD.`approved_at`),
    'receivedAt', json_object('before', OLD.`received_at`),
    'refundedAt', json_object('before', OLD.`refunded_at`),
    'closedAt', json_object('before', OLD.`closed_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_returns_update` AFTER UPDATE OF `id`, `order_id`, `customer_id`, `status`, `note`, `resolution`, `exchange_order_id`, `requested_by`, `approved_at`, `received_at`, `refunded_at`, `closed_at` ON `returns`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`order_id` IS NOT NEW.`order_id` OR OLD.`customer_id` IS NOT NEW.`customer_id` OR OLD.`status` IS NOT NEW.`status` OR OLD.`note` IS NOT NEW.`note` OR OLD.`resolution` IS NOT NEW.`resolution` OR OLD.`exchange_order_id` IS NOT NEW.`exchange_order_id` OR OLD.`requested_by` IS NOT NEW.`requested_by` OR OLD.`approved_at` IS NOT NEW.`approved_at` OR OLD.`received_at` IS NOT NEW.`received_at` OR OLD.`refunded_at` IS NOT NEW.`refunded_at` OR OLD.`closed_at` IS NOT NEW.`closed_at`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'return', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'orderId', iif(OLD.`order_id` IS NOT NEW.`order_id`, json_object('before', OLD.`order_id`, 'after', NEW.`order_id`), NULL),
    'customerId', iif(OLD.`customer_id` IS NOT NEW.`customer_id`, json_object('before', OLD.`customer_id`, 'after', NEW.`customer_id`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'note', iif(OLD.`note` IS NOT NEW.`note`, json_object('before', OLD.`note`, 'after', NEW.`note`), NULL),
    'resolution', iif(OLD.`resolution` IS NOT NEW.`resolution`, json_object('before', OLD.`resolution`, 'after', NEW.`resolution`), NULL),
    'exchangeOrderId', iif(OLD.`exchange_order_id` IS NOT NEW.`exchange_order_id`, json_object('before', OLD.`exchange_order_id`, 'after', NEW.`exchange_order_id`), NULL),
    'requestedBy', iif(OLD.`requested_by` IS NOT NEW.`requested_by`, json_object('before', OLD.`requested_by`, 'after', NEW.`requested_by`), NULL),
    'approvedAt', iif(OLD.`approved_at` IS NOT NEW.`approved_at`, json_object('before', OLD.`approved_at`, 'after', NEW.`approved_at`), NULL),
    'receivedAt', iif(OLD.`received_at` IS NOT NEW.`received_at`, json_object('before', OLD.`received_at`, 'after', NEW.`received_at`), NULL),
    'refundedAt', iif(OLD.`refunded_at` IS NOT NEW.`refunded_at`, json_object('before', OLD.`refunded_at`, 'after', NEW.`refunded_at`), NULL),
    'closedAt', iif(OLD.`closed_at` IS NOT NEW.`closed_at`, json_object('before', OLD.`closed_at`, 'after', NEW.`closed_at`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `returns_release_lines` AFTER UPDATE OF `status` ON `returns`
WHEN NEW.`status` IN ('rejected', 'cancelled') AND OLD.`status` NOT IN ('rejected', 'cancelled')
BEGIN
  UPDATE `order_lines` SET `quantity_returned` = `quantity_returned` - (SELECT sum(rl.`quantity`) FROM `return_lines` rl WHERE rl.`return_id` = NEW.`id` AND rl.`order_line_id` = `order_lines`.`id`)
  WHERE `id` IN (SELECT `order_line_id` FROM `return_lines` WHERE `return_id` = NEW.`id`);
END;

CREATE TABLE `roles` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`permissions` text DEFAULT '[]' NOT NULL,
	`built_in` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE UNIQUE INDEX `roles_name_unique` ON `roles` (`name`);

CREATE TRIGGER `audit_roles_create` AFTER INSERT ON `roles`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'role', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'description', json_object('after', NEW.`description`),
    'permissions', json_object('after', iif(json_valid(NEW.`permissions`), json(NEW.`permissions`), NEW.`permissions`)),
    'builtIn', json_object('after', iif(NEW.`built_in` = 1, json('true'), iif(NEW.`built_in` = 0, json('false'), NEW.`built_in`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_roles_delete` AFTER DELETE ON `roles`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'role', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'description', json_object('before', OLD.`description`),
    'permissions', json_object('before', iif(json_valid(OLD.`permissions`), json(OLD.`permissions`), OLD.`permissions`)),
    'builtIn', json_object('before', iif(OLD.`built_in` = 1, json('true'), iif(OLD.`built_in` = 0, json('false'), OLD.`built_in`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_roles_update` AFTER UPDATE OF `id`, `name`, `description`, `permissions`, `built_in` ON `roles`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`description` IS NOT NEW.`description` OR OLD.`permissions` IS NOT NEW.`permissions` OR OLD.`built_in` IS NOT NEW.`built_in`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'role', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'description', iif(OLD.`description` IS NOT NEW.`description`, json_object('before', OLD.`description`, 'after', NEW.`description`), NULL),
    'permissions', iif(OLD.`permissions` IS NOT NEW.`permissions`, json_object('before', iif(json_valid(OLD.`permissions`), json(OLD.`permissions`), OLD.`permissions`), 'after', iif(json_valid(NEW.`permissions`), json(NEW.`permissions`), NEW.`permissions`)), NULL),
    'builtIn', iif(OLD.`built_in` IS NOT NEW.`built_in`, json_object('before', iif(OLD.`built_in` = 1, json('true'), iif(OLD.`built_in` = 0, json('false'), OLD.`built_in`)), 'after', iif(NEW.`built_in` = 1, json('true'), iif(NEW.`built_in` = 0, json('false'), NEW.`built_in`))), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `sales_days` (
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`minor_units` integer NOT NULL,
	`orders` integer DEFAULT 0 NOT NULL,
	`first_orders` integer DEFAULT 0 NOT NULL,
	`first_order_sales` integer DEFAULT 0 NOT NULL,
	`units` integer DEFAULT 0 NOT NULL,
	`gross` integer DEFAULT 0 NOT NULL,
	`discounts` integer DEFAULT 0 NOT NULL,
	`shipping` integer DEFAULT 0 NOT NULL,
	`tax` integer DEFAULT 0 NOT NULL,
	`sales` integer DEFAULT 0 NOT NULL,
	`refunds` integer DEFAULT 0 NOT NULL, `line_tax_included` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`currency`, `day`)
);

CREATE TABLE `shipment_lines` (
	`shipment_id` text NOT NULL,
	`order_line_id` text NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`shipment_id`, `order_line_id`),
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_line_id`) REFERENCES `order_lines`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE TRIGGER `audit_shipment_lines_create` AFTER INSERT ON `shipment_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipment_line', NEW.`shipment_id` || '/' || NEW.`order_line_id`, 'create',
  coalesce(json_object(
    'shipmentId', json_object('after', NEW.`shipment_id`),
    'orderLineId', json_object('after', NEW.`order_line_id`),
    'quantity', json_object('after', NEW.`quantity`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_shipment_lines_delete` AFTER DELETE ON `shipment_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipment_line', OLD.`shipment_id` || '/' || OLD.`order_line_id`, 'delete',
  coalesce(json_object(
    'shipmentId', json_object('before', OLD.`shipment_id`),
    'orderLineId', json_object('before', OLD.`order_line_id`),
    'quantity', json_object('before', OLD.`quantity`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_shipment_lines_update` AFTER UPDATE OF `shipment_id`, `order_line_id`, `quantity` ON `shipment_lines`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`shipment_id` IS NOT NEW.`shipment_id` OR OLD.`order_line_id` IS NOT NEW.`order_line_id` OR OLD.`quantity` IS NOT NEW.`quantity`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipment_line', NEW.`shipment_id` || '/' || NEW.`order_line_id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'shipmentId', iif(OLD.`shipment_id` IS NOT NEW.`shipment_id`, json_object('before', OLD.`shipment_id`, 'after', NEW.`shipment_id`), NULL),
    'orderLineId', iif(OLD.`order_line_id` IS NOT NEW.`order_line_id`, json_object('before', OLD.`order_line_id`, 'after', NEW.`order_line_id`), NULL),
    'quantity', iif(OLD.`quantity` IS NOT NEW.`quantity`, json_object('before', OLD.`quantity`, 'after', NEW.`quantity`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `shipments` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`carrier` text,
	`tracking_number` text,
	`tracking_url` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`shipped_at` text,
	`delivered_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `shipping_method_id` text,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE restrict
);

CREATE INDEX `shipments_order_idx` ON `shipments` (`order_id`,`created_at`);

CREATE TRIGGER `audit_shipments_create` AFTER INSERT ON `shipments`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipment', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'orderId', json_object('after', NEW.`order_id`),
    'carrier', json_object('after', NEW.`carrier`),
    'shippingMethodId', json_object('after', NEW.`shipping_method_id`),
    'trackingNumber', json_object('after', NEW.`tracking_number`),
    'trackingUrl', json_object('after', NEW.`tracking_url`),
    'status', json_object('after', NEW.`status`),
    'shippedAt', json_object('after', NEW.`shipped_at`),
    'deliveredAt', json_object('after', NEW.`delivered_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_shipments_delete` AFTER DELETE ON `shipments`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipment', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'orderId', json_object('before', OLD.`order_id`),
    'carrier', json_object('before', OLD.`carrier`),
    'shippingMethodId', json_object('before', OLD.`shipping_method_id`),
    'trackingNumber', json_object('before', OLD.`tracking_number`),
    'trackingUrl', json_object('before', OLD.`tracking_url`),
    'status', json_object('before', OLD.`status`),
    'shippedAt', json_object('before', OLD.`shipped_at`),
    'deliveredAt', json_object('before', OLD.`delivered_at`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_shipments_update` AFTER UPDATE OF `id`, `order_id`, `carrier`, `shipping_method_id`, `tracking_number`, `tracking_url`, `status`, `shipped_at`, `delivered_at` ON `shipments`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`order_id` IS NOT NEW.`order_id` OR OLD.`carrier` IS NOT NEW.`carrier` OR OLD.`shipping_method_id` IS NOT NEW.`shipping_method_id` OR OLD.`tracking_number` IS NOT NEW.`tracking_number` OR OLD.`tracking_url` IS NOT NEW.`tracking_url` OR OLD.`status` IS NOT NEW.`status` OR OLD.`shipped_at` IS NOT NEW.`shipped_at` OR OLD.`delivered_at` IS NOT NEW.`delivered_at`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipment', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'orderId', iif(OLD.`order_id` IS NOT NEW.`order_id`, json_object('before', OLD.`order_id`, 'after', NEW.`order_id`), NULL),
    'carrier', iif(OLD.`carrier` IS NOT NEW.`carrier`, json_object('before', OLD.`carrier`, 'after', NEW.`carrier`), NULL),
    'shippingMethodId', iif(OLD.`shipping_method_id` IS NOT NEW.`shipping_method_id`, json_object('before', OLD.`shipping_method_id`, 'after', NEW.`shipping_method_id`), NULL),
    'trackingNumber', iif(OLD.`tracking_number` IS NOT NEW.`tracking_number`, json_object('before', OLD.`tracking_number`, 'after', NEW.`tracking_number`), NULL),
    'trackingUrl', iif(OLD.`tracking_url` IS NOT NEW.`tracking_url`, json_object('before', OLD.`tracking_url`, 'after', NEW.`tracking_url`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'shippedAt', iif(OLD.`shipped_at` IS NOT NEW.`shipped_at`, json_object('before', OLD.`shipped_at`, 'after', NEW.`shipped_at`), NULL),
    'deliveredAt', iif(OLD.`delivered_at` IS NOT NEW.`delivered_at`, json_object('before', OLD.`delivered_at`, 'after', NEW.`delivered_at`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `shipping_methods` (
	`id` text PRIMARY KEY NOT NULL,
	`zone_id` text NOT NULL,
	`name` text NOT NULL,
	`carrier` text,
	`min_delivery_days` integer,
	`max_delivery_days` integer,
	`active` integer DEFAULT true NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`rate` text NOT NULL,
	`free_above` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `currency_rates` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`zone_id`) REFERENCES `shipping_zones`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `shipping_methods_zone_idx` ON `shipping_methods` (`zone_id`,`position`);

CREATE TRIGGER `audit_shipping_methods_create` AFTER INSERT ON `shipping_methods`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipping_method', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'zoneId', json_object('after', NEW.`zone_id`),
    'name', json_object('after', NEW.`name`),
    'carrier', json_object('after', NEW.`carrier`),
    'minDeliveryDays', json_object('after', NEW.`min_delivery_days`),
    'maxDeliveryDays', json_object('after', NEW.`max_delivery_days`),
    'active', json_object('after', iif(NEW.`active` = 1, json('true'), iif(NEW.`active` = 0, json('false'), NEW.`active`))),
    'position', json_object('after', NEW.`position`),
    'rate', json_object('after', iif(json_valid(NEW.`rate`), json(NEW.`rate`), NEW.`rate`)),
    'freeAbove', json_object('after', NEW.`free_above`),
    'currencyRates', json_object('after', iif(json_valid(NEW.`currency_rates`), json(NEW.`currency_rates`), NEW.`currency_rates`))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_shipping_methods_delete` AFTER DELETE ON `shipping_methods`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipping_method', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'zoneId', json_object('before', OLD.`zone_id`),
    'name', json_object('before', OLD.`name`),
    'carrier', json_object('before', OLD.`carrier`),
    'minDeliveryDays', json_object('before', OLD.`min_delivery_days`),
    'maxDeliveryDays', json_object('before', OLD.`max_delivery_days`),
    'active', json_object('before', iif(OLD.`active` = 1, json('true'), iif(OLD.`active` = 0, json('false'), OLD.`active`))),
    'position', json_object('before', OLD.`position`),
    'rate', json_object('before', iif(json_valid(OLD.`rate`), json(OLD.`rate`), OLD.`rate`)),
    'freeAbove', json_object('before', OLD.`free_above`),
    'currencyRates', json_object('before', iif(json_valid(OLD.`currency_rates`), json(OLD.`currency_rates`), OLD.`currency_rates`))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_shipping_methods_update` AFTER UPDATE OF `id`, `zone_id`, `name`, `carrier`, `min_delivery_days`, `max_delivery_days`, `active`, `position`, `rate`, `free_above`, `currency_rates` ON `shipping_methods`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`zone_id` IS NOT NEW.`zone_id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`carrier` IS NOT NEW.`carrier` OR OLD.`min_delivery_days` IS NOT NEW.`min_delivery_days` OR OLD.`max_delivery_days` IS NOT NEW.`max_delivery_days` OR OLD.`active` IS NOT NEW.`active` OR OLD.`position` IS NOT NEW.`position` OR OLD.`rate` IS NOT NEW.`rate` OR OLD.`free_above` IS NOT NEW.`free_above` OR OLD.`currency_rates` IS NOT NEW.`currency_rates`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipping_method', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'zoneId', iif(OLD.`zone_id` IS NOT NEW.`zone_id`, json_object('before', OLD.`zone_id`, 'after', NEW.`zone_id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'carrier', iif(OLD.`carrier` IS NOT NEW.`carrier`, json_object('before', OLD.`carrier`, 'after', NEW.`carrier`), NULL),
    'minDeliveryDays', iif(OLD.`min_delivery_days` IS NOT NEW.`min_delivery_days`, json_object('before', OLD.`min_delivery_days`, 'after', NEW.`min_delivery_days`), NULL),
    'maxDeliveryDays', iif(OLD.`max_delivery_days` IS NOT NEW.`max_delivery_days`, json_object('before', OLD.`max_delivery_days`, 'after', NEW.`max_delivery_days`), NULL),
    'active', iif(OLD.`active` IS NOT NEW.`active`, json_object('before', iif(OLD.`active` = 1, json('true'), iif(OLD.`active` = 0, json('false'), OLD.`active`)), 'after', iif(NEW.`active` = 1, json('true'), iif(NEW.`active` = 0, json('false'), NEW.`active`))), NULL),
    'position', iif(OLD.`position` IS NOT NEW.`position`, json_object('before', OLD.`position`, 'after', NEW.`position`), NULL),
    'rate', iif(OLD.`rate` IS NOT NEW.`rate`, json_object('before', iif(json_valid(OLD.`rate`), json(OLD.`rate`), OLD.`rate`), 'after', iif(json_valid(NEW.`rate`), json(NEW.`rate`), NEW.`rate`)), NULL),
    'freeAbove', iif(OLD.`free_above` IS NOT NEW.`free_above`, json_object('before', OLD.`free_above`, 'after', NEW.`free_above`), NULL),
    'currencyRates', iif(OLD.`currency_rates` IS NOT NEW.`currency_rates`, json_object('before', iif(json_valid(OLD.`currency_rates`), json(OLD.`currency_rates`), OLD.`currency_rates`), 'after', iif(json_valid(NEW.`currency_rates`), json(NEW.`currency_rates`), NEW.`currency_rates`)), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `shipping_methods_bump_quote_delete` AFTER DELETE ON `shipping_methods`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `shipping_methods_bump_quote_insert` AFTER INSERT ON `shipping_methods`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `shipping_methods_bump_quote_update` AFTER UPDATE ON `shipping_methods`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `shipping_zones` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`countries` text DEFAULT '[]' NOT NULL,
	`regions` text DEFAULT '[]' NOT NULL,
	`postcodes` text DEFAULT '[]' NOT NULL,
	`rest_of_world` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE UNIQUE INDEX `shipping_zones_rest_of_world_idx` ON `shipping_zones` (`rest_of_world`) WHERE "shipping_zones"."rest_of_world" = 1;

CREATE TRIGGER `audit_shipping_zones_create` AFTER INSERT ON `shipping_zones`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipping_zone', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'countries', json_object('after', iif(json_valid(NEW.`countries`), json(NEW.`countries`), NEW.`countries`)),
    'regions', json_object('after', iif(json_valid(NEW.`regions`), json(NEW.`regions`), NEW.`regions`)),
    'postcodes', json_object('after', iif(json_valid(NEW.`postcodes`), json(NEW.`postcodes`), NEW.`postcodes`)),
    'restOfWorld', json_object('after', iif(NEW.`rest_of_world` = 1, json('true'), iif(NEW.`rest_of_world` = 0, json('false'), NEW.`rest_of_world`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_shipping_zones_delete` AFTER DELETE ON `shipping_zones`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipping_zone', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'countries', json_object('before', iif(json_valid(OLD.`countries`), json(OLD.`countries`), OLD.`countries`)),
    'regions', json_object('before', iif(json_valid(OLD.`regions`), json(OLD.`regions`), OLD.`regions`)),
    'postcodes', json_object('before', iif(json_valid(OLD.`postcodes`), json(OLD.`postcodes`), OLD.`postcodes`)),
    'restOfWorld', json_object('before', iif(OLD.`rest_of_world` = 1, json('true'), iif(OLD.`rest_of_world` = 0, json('false'), OLD.`rest_of_world`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_shipping_zones_update` AFTER UPDATE OF `id`, `name`, `countries`, `regions`, `postcodes`, `rest_of_world` ON `shipping_zones`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`countries` IS NOT NEW.`countries` OR OLD.`regions` IS NOT NEW.`regions` OR OLD.`postcodes` IS NOT NEW.`postcodes` OR OLD.`rest_of_world` IS NOT NEW.`rest_of_world`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'shipping_zone', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'countries', iif(OLD.`countries` IS NOT NEW.`countries`, json_object('before', iif(json_valid(OLD.`countries`), json(OLD.`countries`), OLD.`countries`), 'after', iif(json_valid(NEW.`countries`), json(NEW.`countries`), NEW.`countries`)), NULL),
    'regions', iif(OLD.`regions` IS NOT NEW.`regions`, json_object('before', iif(json_valid(OLD.`regions`), json(OLD.`regions`), OLD.`regions`), 'after', iif(json_valid(NEW.`regions`), json(NEW.`regions`), NEW.`regions`)), NULL),
    'postcodes', iif(OLD.`postcodes` IS NOT NEW.`postcodes`, json_object('before', iif(json_valid(OLD.`postcodes`), json(OLD.`postcodes`), OLD.`postcodes`), 'after', iif(json_valid(NEW.`postcodes`), json(NEW.`postcodes`), NEW.`postcodes`)), NULL),
    'restOfWorld', iif(OLD.`rest_of_world` IS NOT NEW.`rest_of_world`, json_object('before', iif(OLD.`rest_of_world` = 1, json('true'), iif(OLD.`rest_of_world` = 0, json('false'), OLD.`rest_of_world`)), 'after', iif(NEW.`rest_of_world` = 1, json('true'), iif(NEW.`rest_of_world` = 0, json('false'), NEW.`rest_of_world`))), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `shipping_zones_bump_quote_delete` AFTER DELETE ON `shipping_zones`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `shipping_zones_bump_quote_insert` AFTER INSERT ON `shipping_zones`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `shipping_zones_bump_quote_update` AFTER UPDATE ON `shipping_zones`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `store_credit_balances` (
	`customer_id` text NOT NULL,
	`currency` text NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`customer_id`, `currency`)
);

CREATE TABLE `store_credit_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`balance_after` integer DEFAULT 0 NOT NULL,
	`reason` text NOT NULL,
	`note` text,
	`order_id` text,
	`return_id` text,
	`refund_id` text,
	`payment_id` text,
	`actor` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `store_credit_entries_customer_idx` ON `store_credit_entries` (`customer_id`,`created_at`,`id`);

CREATE TRIGGER `store_credit_entries_apply` AFTER INSERT ON `store_credit_entries`
BEGIN
  INSERT INTO `store_credit_balances` (`customer_id`, `currency`, `balance`) VALUES (NEW.`customer_id`, NEW.`currency`, NEW.`amount`)
  ON CONFLICT (`customer_id`, `currency`) DO UPDATE SET `balance` = `balance` + `excluded`.`balance`;
  SELECT RAISE(ABORT, 'guard:insufficient_store_credit')
  WHERE (SELECT `balance` FROM `store_credit_balances` WHERE `customer_id` = NEW.`customer_id` AND `currency` = NEW.`currency`) < 0;
  UPDATE `store_credit_entries` SET `balance_after` = (SELECT `balance` FROM `store_credit_balances` WHERE `customer_id` = NEW.`customer_id` AND `currency` = NEW.`currency`)
  WHERE `id` = NEW.`id`;
END;

CREATE TABLE `store_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`contact_email` text,
	`default_currency` text NOT NULL,
	`weight_unit` text DEFAULT 'kg' NOT NULL,
	`low_stock_threshold` integer DEFAULT 5 NOT NULL,
	`shipping_flat_rate` integer DEFAULT 0 NOT NULL,
	`free_shipping_threshold` integer,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
, `allowed_origins` text DEFAULT '[]' NOT NULL, `prices_include_tax` integer DEFAULT false NOT NULL, `return_window_days` integer DEFAULT 30 NOT NULL, `api_version` text DEFAULT '2026-11-20' NOT NULL);

CREATE TRIGGER `audit_store_settings_create` AFTER INSERT ON `store_settings`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'settings', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'contactEmail', json_object('after', NEW.`contact_email`),
    'defaultCurrency', json_object('after', NEW.`default_currency`),
    'weightUnit', json_object('after', NEW.`weight_unit`),
    'pricesIncludeTax', json_object('after', iif(NEW.`prices_include_tax` = 1, json('true'), iif(NEW.`prices_include_tax` = 0, json('false'), NEW.`prices_include_tax`))),
    'returnWindowDays', json_object('after', NEW.`return_window_days`),
    'lowStockThreshold', json_object('after', NEW.`low_stock_threshold`),
    'shippingFlatRate', json_object('after', NEW.`shipping_flat_rate`),
    'freeShippingThreshold', json_object('after', NEW.`free_shipping_threshold`),
    'allowedOrigins', json_object('after', iif(json_valid(NEW.`allowed_origins`), json(NEW.`allowed_origins`), NEW.`allowed_origins`)),
    'apiVersion', json_object('after', NEW.`api_version`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_store_settings_delete` AFTER DELETE ON `store_settings`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'settings', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'contactEmail', json_object('before', OLD.`contact_email`),
    'defaultCurrency', json_object('before', OLD.`default_currency`),
    'weightUnit', json_object('before', OLD.`weight_unit`),
    'pricesIncludeTax', json_object('before', iif(OLD.`prices_include_tax` = 1, json('true'), iif(OLD.`prices_include_tax` = 0, json('false'), OLD.`prices_include_tax`))),
    'returnWindowDays', json_object('before', OLD.`return_window_days`),
    'lowStockThreshold', json_object('before', OLD.`low_stock_threshold`),
    'shippingFlatRate', json_object('before', OLD.`shipping_flat_rate`),
    'freeShippingThreshold', json_object('before', OLD.`free_shipping_threshold`),
    'allowedOrigins', json_object('before', iif(json_valid(OLD.`allowed_origins`), json(OLD.`allowed_origins`), OLD.`allowed_origins`)),
    'apiVersion', json_object('before', OLD.`api_version`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_store_settings_update` AFTER UPDATE OF `id`, `name`, `contact_email`, `default_currency`, `weight_unit`, `prices_include_tax`, `return_window_days`, `low_stock_threshold`, `shipping_flat_rate`, `free_shipping_threshold`, `allowed_origins`, `api_version` ON `store_settings`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`contact_email` IS NOT NEW.`contact_email` OR OLD.`default_currency` IS NOT NEW.`default_currency` OR OLD.`weight_unit` IS NOT NEW.`weight_unit` OR OLD.`prices_include_tax` IS NOT NEW.`prices_include_tax` OR OLD.`return_window_days` IS NOT NEW.`return_window_days` OR OLD.`low_stock_threshold` IS NOT NEW.`low_stock_threshold` OR OLD.`shipping_flat_rate` IS NOT NEW.`shipping_flat_rate` OR OLD.`free_shipping_threshold` IS NOT NEW.`free_shipping_threshold` OR OLD.`allowed_origins` IS NOT NEW.`allowed_origins` OR OLD.`api_version` IS NOT NEW.`api_version`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'settings', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'contactEmail', iif(OLD.`contact_email` IS NOT NEW.`contact_email`, json_object('before', OLD.`contact_email`, 'after', NEW.`contact_email`), NULL),
    'defaultCurrency', iif(OLD.`default_currency` IS NOT NEW.`default_currency`, json_object('before', OLD.`default_currency`, 'after', NEW.`default_currency`), NULL),
    'weightUnit', iif(OLD.`weight_unit` IS NOT NEW.`weight_unit`, json_object('before', OLD.`weight_unit`, 'after', NEW.`weight_unit`), NULL),
    'pricesIncludeTax', iif(OLD.`prices_include_tax` IS NOT NEW.`prices_include_tax`, json_object('before', iif(OLD.`prices_include_tax` = 1, json('true'), iif(OLD.`prices_include_tax` = 0, json('false'), OLD.`prices_include_tax`)), 'after', iif(NEW.`prices_include_tax` = 1, json('true'), iif(NEW.`prices_include_tax` = 0, json('false'), NEW.`prices_include_tax`))), NULL),
    'returnWindowDays', iif(OLD.`return_window_days` IS NOT NEW.`return_window_days`, json_object('before', OLD.`return_window_days`, 'after', NEW.`return_window_days`), NULL),
    'lowStockThreshold', iif(OLD.`low_stock_threshold` IS NOT NEW.`low_stock_threshold`, json_object('before', OLD.`low_stock_threshold`, 'after', NEW.`low_stock_threshold`), NULL),
    'shippingFlatRate', iif(OLD.`shipping_flat_rate` IS NOT NEW.`shipping_flat_rate`, json_object('before', OLD.`shipping_flat_rate`, 'after', NEW.`shipping_flat_rate`), NULL),
    'freeShippingThreshold', iif(OLD.`free_shipping_threshold` IS NOT NEW.`free_shipping_threshold`, json_object('before', OLD.`free_shipping_threshold`, 'after', NEW.`free_shipping_threshold`), NULL),
    'allowedOrigins', iif(OLD.`allowed_origins` IS NOT NEW.`allowed_origins`, json_object('before', iif(json_valid(OLD.`allowed_origins`), json(OLD.`allowed_origins`), OLD.`allowed_origins`), 'after', iif(json_valid(NEW.`allowed_origins`), json(NEW.`allowed_origins`), NEW.`allowed_origins`)), NULL),
    'apiVersion', iif(OLD.`api_version` IS NOT NEW.`api_version`, json_object('before', OLD.`api_version`, 'after', NEW.`api_version`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `store_settings_bump_catalogue_currency` AFTER UPDATE OF `default_currency` ON `store_settings`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `store_settings_bump_quote` AFTER UPDATE ON `store_settings`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `tax_classes` (
	`code` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE TRIGGER `audit_tax_classes_create` AFTER INSERT ON `tax_classes`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'tax_class', NEW.`code`, 'create',
  coalesce(json_object(
    'code', json_object('after', NEW.`code`),
    'name', json_object('after', NEW.`name`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_tax_classes_delete` AFTER DELETE ON `tax_classes`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'tax_class', OLD.`code`, 'delete',
  coalesce(json_object(
    'code', json_object('before', OLD.`code`),
    'name', json_object('before', OLD.`name`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_tax_classes_update` AFTER UPDATE OF `code`, `name` ON `tax_classes`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`code` IS NOT NEW.`code` OR OLD.`name` IS NOT NEW.`name`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'tax_class', NEW.`code`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'code', iif(OLD.`code` IS NOT NEW.`code`, json_object('before', OLD.`code`, 'after', NEW.`code`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `tax_classes_delete_rates` AFTER DELETE ON `tax_classes`
BEGIN
  DELETE FROM `tax_rates` WHERE `tax_class` = OLD.`code`;
END;

CREATE TRIGGER `tax_classes_in_use` BEFORE DELETE ON `tax_classes`
BEGIN
  SELECT RAISE(ABORT, 'tax_class_in_use') WHERE EXISTS (SELECT 1 FROM `products` WHERE `tax_class` = OLD.`code`);
END;

CREATE TABLE `tax_rates` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`country` text NOT NULL,
	`region` text,
	`rate` text NOT NULL,
	`shipping_taxable` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
, `tax_class` text DEFAULT 'standard' NOT NULL);

CREATE UNIQUE INDEX `tax_rates_place_class_idx` ON `tax_rates` (`country`,coalesce(`region`, ''),`tax_class`);

CREATE TRIGGER `audit_tax_rates_create` AFTER INSERT ON `tax_rates`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'tax_rate', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'country', json_object('after', NEW.`country`),
    'region', json_object('after', NEW.`region`),
    'rate', json_object('after', NEW.`rate`),
    'taxClass', json_object('after', NEW.`tax_class`),
    'shippingTaxable', json_object('after', iif(NEW.`shipping_taxable` = 1, json('true'), iif(NEW.`shipping_taxable` = 0, json('false'), NEW.`shipping_taxable`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_tax_rates_delete` AFTER DELETE ON `tax_rates`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'tax_rate', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'country', json_object('before', OLD.`country`),
    'region', json_object('before', OLD.`region`),
    'rate', json_object('before', OLD.`rate`),
    'taxClass', json_object('before', OLD.`tax_class`),
    'shippingTaxable', json_object('before', iif(OLD.`shipping_taxable` = 1, json('true'), iif(OLD.`shipping_taxable` = 0, json('false'), OLD.`shipping_taxable`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_tax_rates_update` AFTER UPDATE OF `id`, `name`, `country`, `region`, `rate`, `tax_class`, `shipping_taxable` ON `tax_rates`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`country` IS NOT NEW.`country` OR OLD.`region` IS NOT NEW.`region` OR OLD.`rate` IS NOT NEW.`rate` OR OLD.`tax_class` IS NOT NEW.`tax_class` OR OLD.`shipping_taxable` IS NOT NEW.`shipping_taxable`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'tax_rate', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'country', iif(OLD.`country` IS NOT NEW.`country`, json_object('before', OLD.`country`, 'after', NEW.`country`), NULL),
    'region', iif(OLD.`region` IS NOT NEW.`region`, json_object('before', OLD.`region`, 'after', NEW.`region`), NULL),
    'rate', iif(OLD.`rate` IS NOT NEW.`rate`, json_object('before', OLD.`rate`, 'after', NEW.`rate`), NULL),
    'taxClass', iif(OLD.`tax_class` IS NOT NEW.`tax_class`, json_object('before', OLD.`tax_class`, 'after', NEW.`tax_class`), NULL),
    'shippingTaxable', iif(OLD.`shipping_taxable` IS NOT NEW.`shipping_taxable`, json_object('before', iif(OLD.`shipping_taxable` = 1, json('true'), iif(OLD.`shipping_taxable` = 0, json('false'), OLD.`shipping_taxable`)), 'after', iif(NEW.`shipping_taxable` = 1, json('true'), iif(NEW.`shipping_taxable` = 0, json('false'), NEW.`shipping_taxable`))), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `tax_rates_bump_quote_delete` AFTER DELETE ON `tax_rates`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `tax_rates_bump_quote_insert` AFTER INSERT ON `tax_rates`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `tax_rates_bump_quote_update` AFTER UPDATE ON `tax_rates`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`phone` text,
	`password_hash` text,
	`role_id` text NOT NULL,
	`vendor_id` text,
	`status` text DEFAULT 'active' NOT NULL,
	`last_login_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `token_version` integer DEFAULT 0 NOT NULL, `sms_opt_out` integer DEFAULT false NOT NULL, `marketing_email_opt_out` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE restrict
);

CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);
CREATE INDEX `users_role_created_idx` ON `users` (`role_id`,`created_at`,`id`);
CREATE INDEX `users_vendor_idx` ON `users` (`vendor_id`);

CREATE TRIGGER `audit_users_create` AFTER INSERT ON `users`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'user', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'email', json_object('after', NEW.`email`),
    'name', json_object('after', NEW.`name`),
    'phone', json_object('after', NEW.`phone`),
    'passwordHash', json_object('after', iif(NEW.`password_hash` IS NULL, NULL, '[redacted]')),
    'roleId', json_object('after', NEW.`role_id`),
    'vendorId', json_object('after', NEW.`vendor_id`),
    'status', json_object('after', NEW.`status`),
    'tokenVersion', json_object('after', NEW.`token_version`),
    'smsOptOut', json_object('after', iif(NEW.`sms_opt_out` = 1, json('true'), iif(NEW.`sms_opt_out` = 0, json('false'), NEW.`sms_opt_out`))),
    'marketingEmailOptOut', json_object('after', iif(NEW.`marketing_email_opt_out` = 1, json('true'), iif(NEW.`marketing_email_opt_out` = 0, json('false'), NEW.`marketing_email_opt_out`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_users_delete` AFTER DELETE ON `users`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'user', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'email', json_object('before', OLD.`email`),
    'name', json_object('before', OLD.`name`),
    'phone', json_object('before', OLD.`phone`),
    'passwordHash', json_object('before', iif(OLD.`password_hash` IS NULL, NULL, '[redacted]')),
    'roleId', json_object('before', OLD.`role_id`),
    'vendorId', json_object('before', OLD.`vendor_id`),
    'status', json_object('before', OLD.`status`),
    'tokenVersion', json_object('before', OLD.`token_version`),
    'smsOptOut', json_object('before', iif(OLD.`sms_opt_out` = 1, json('true'), iif(OLD.`sms_opt_out` = 0, json('false'), OLD.`sms_opt_out`))),
    'marketingEmailOptOut', json_object('before', iif(OLD.`marketing_email_opt_out` = 1, json('true'), iif(OLD.`marketing_email_opt_out` = 0, json('false'), OLD.`marketing_email_opt_out`)))
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_users_update` AFTER UPDATE OF `id`, `email`, `name`, `phone`, `password_hash`, `role_id`, `vendor_id`, `status`, `token_version`, `sms_opt_out`, `marketing_email_opt_out` ON `users`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`email` IS NOT NEW.`email` OR OLD.`name` IS NOT NEW.`name` OR OLD.`phone` IS NOT NEW.`phone` OR OLD.`password_hash` IS NOT NEW.`password_hash` OR OLD.`role_id` IS NOT NEW.`role_id` OR OLD.`vendor_id` IS NOT NEW.`vendor_id` OR OLD.`status` IS NOT NEW.`status` OR OLD.`token_version` IS NOT NEW.`token_version` OR OLD.`sms_opt_out` IS NOT NEW.`sms_opt_out` OR OLD.`marketing_email_opt_out` IS NOT NEW.`marketing_email_opt_out`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'user', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'email', iif(OLD.`email` IS NOT NEW.`email`, json_object('before', OLD.`email`, 'after', NEW.`email`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'phone', iif(OLD.`phone` IS NOT NEW.`phone`, json_object('before', OLD.`phone`, 'after', NEW.`phone`), NULL),
    'passwordHash', iif(OLD.`password_hash` IS NOT NEW.`password_hash`, json_object('before', iif(OLD.`password_hash` IS NULL, NULL, '[redacted]'), 'after', iif(NEW.`password_hash` IS NULL, NULL, '[redacted]')), NULL),
    'roleId', iif(OLD.`role_id` IS NOT NEW.`role_id`, json_object('before', OLD.`role_id`, 'after', NEW.`role_id`), NULL),
    'vendorId', iif(OLD.`vendor_id` IS NOT NEW.`vendor_id`, json_object('before', OLD.`vendor_id`, 'after', NEW.`vendor_id`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL),
    'tokenVersion', iif(OLD.`token_version` IS NOT NEW.`token_version`, json_object('before', OLD.`token_version`, 'after', NEW.`token_version`), NULL),
    'smsOptOut', iif(OLD.`sms_opt_out` IS NOT NEW.`sms_opt_out`, json_object('before', iif(OLD.`sms_opt_out` = 1, json('true'), iif(OLD.`sms_opt_out` = 0, json('false'), OLD.`sms_opt_out`)), 'after', iif(NEW.`sms_opt_out` = 1, json('true'), iif(NEW.`sms_opt_out` = 0, json('false'), NEW.`sms_opt_out`))), NULL),
    'marketingEmailOptOut', iif(OLD.`marketing_email_opt_out` IS NOT NEW.`marketing_email_opt_out`, json_object('before', iif(OLD.`marketing_email_opt_out` = 1, json('true'), iif(OLD.`marketing_email_opt_out` = 0, json('false'), OLD.`marketing_email_opt_out`)), 'after', iif(NEW.`marketing_email_opt_out` = 1, json('true'), iif(NEW.`marketing_email_opt_out` = 0, json('false'), NEW.`marketing_email_opt_out`))), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `vendors` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`email` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
, `description` text, `status` text DEFAULT 'active' NOT NULL);

CREATE INDEX `vendors_created_idx` ON `vendors` (`created_at`);
CREATE INDEX `vendors_name_idx` ON `vendors` (`name`);
CREATE UNIQUE INDEX `vendors_slug_unique` ON `vendors` (`slug`);

CREATE TRIGGER `audit_vendors_create` AFTER INSERT ON `vendors`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'vendor', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'name', json_object('after', NEW.`name`),
    'slug', json_object('after', NEW.`slug`),
    'email', json_object('after', NEW.`email`),
    'description', json_object('after', NEW.`description`),
    'status', json_object('after', NEW.`status`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_vendors_delete` AFTER DELETE ON `vendors`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'vendor', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'name', json_object('before', OLD.`name`),
    'slug', json_object('before', OLD.`slug`),
    'email', json_object('before', OLD.`email`),
    'description', json_object('before', OLD.`description`),
    'status', json_object('before', OLD.`status`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_vendors_update` AFTER UPDATE OF `id`, `name`, `slug`, `email`, `description`, `status` ON `vendors`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`slug` IS NOT NEW.`slug` OR OLD.`email` IS NOT NEW.`email` OR OLD.`description` IS NOT NEW.`description` OR OLD.`status` IS NOT NEW.`status`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'vendor', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'name', iif(OLD.`name` IS NOT NEW.`name`, json_object('before', OLD.`name`, 'after', NEW.`name`), NULL),
    'slug', iif(OLD.`slug` IS NOT NEW.`slug`, json_object('before', OLD.`slug`, 'after', NEW.`slug`), NULL),
    'email', iif(OLD.`email` IS NOT NEW.`email`, json_object('before', OLD.`email`, 'after', NEW.`email`), NULL),
    'description', iif(OLD.`description` IS NOT NEW.`description`, json_object('before', OLD.`description`, 'after', NEW.`description`), NULL),
    'status', iif(OLD.`status` IS NOT NEW.`status`, json_object('before', OLD.`status`, 'after', NEW.`status`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `vendors_bump_catalogue_delete` AFTER DELETE ON `vendors`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `vendors_bump_catalogue_insert` AFTER INSERT ON `vendors`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `vendors_bump_catalogue_update` AFTER UPDATE ON `vendors`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

CREATE TRIGGER `vendors_related` AFTER UPDATE OF `name`, `slug` ON `vendors`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) SELECT `id` FROM `products` WHERE `vendor_id` = NEW.`id`;
END;

CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`started_at` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`response_excerpt` text,
	`next_retry_at` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`attempt`);

CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`last_attempt_at` text,
	`next_retry_at` text,
	`delivered_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `replay_id` text,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `webhook_deliveries_endpoint_created_idx` ON `webhook_deliveries` (`endpoint_id`,`created_at`);
CREATE UNIQUE INDEX `webhook_deliveries_event_endpoint_idx` ON `webhook_deliveries` (`event_id`,`endpoint_id`);

CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`description` text,
	`active` integer DEFAULT true NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` text,
	`failing_since` text,
	`disabled_at` text,
	`disabled_reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE INDEX `webhook_endpoints_created_idx` ON `webhook_endpoints` (`created_at`,`id`);

CREATE TRIGGER `audit_webhook_endpoints_create` AFTER INSERT ON `webhook_endpoints`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'webhook', NEW.`id`, 'create',
  coalesce(json_object(
    'id', json_object('after', NEW.`id`),
    'url', json_object('after', NEW.`url`),
    'events', json_object('after', iif(json_valid(NEW.`events`), json(NEW.`events`), NEW.`events`)),
    'description', json_object('after', NEW.`description`),
    'active', json_object('after', iif(NEW.`active` = 1, json('true'), iif(NEW.`active` = 0, json('false'), NEW.`active`))),
    'secret', json_object('after', iif(NEW.`secret` IS NULL, NULL, '[redacted]')),
    'previousSecret', json_object('after', iif(NEW.`previous_secret` IS NULL, NULL, '[redacted]')),
    'previousSecretExpiresAt', json_object('after', iif(NEW.`previous_secret_expires_at` IS NULL, NULL, '[redacted]')),
    'failingSince', json_object('after', NEW.`failing_since`),
    'disabledAt', json_object('after', NEW.`disabled_at`),
    'disabledReason', json_object('after', NEW.`disabled_reason`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_webhook_endpoints_delete` AFTER DELETE ON `webhook_endpoints`
WHEN EXISTS (SELECT 1 FROM `audit_context`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'webhook', OLD.`id`, 'delete',
  coalesce(json_object(
    'id', json_object('before', OLD.`id`),
    'url', json_object('before', OLD.`url`),
    'events', json_object('before', iif(json_valid(OLD.`events`), json(OLD.`events`), OLD.`events`)),
    'description', json_object('before', OLD.`description`),
    'active', json_object('before', iif(OLD.`active` = 1, json('true'), iif(OLD.`active` = 0, json('false'), OLD.`active`))),
    'secret', json_object('before', iif(OLD.`secret` IS NULL, NULL, '[redacted]')),
    'previousSecret', json_object('before', iif(OLD.`previous_secret` IS NULL, NULL, '[redacted]')),
    'previousSecretExpiresAt', json_object('before', iif(OLD.`previous_secret_expires_at` IS NULL, NULL, '[redacted]')),
    'failingSince', json_object('before', OLD.`failing_since`),
    'disabledAt', json_object('before', OLD.`disabled_at`),
    'disabledReason', json_object('before', OLD.`disabled_reason`)
  ), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TRIGGER `audit_webhook_endpoints_update` AFTER UPDATE OF `id`, `url`, `events`, `description`, `active`, `secret`, `previous_secret`, `previous_secret_expires_at`, `failing_since`, `disabled_at`, `disabled_reason` ON `webhook_endpoints`
WHEN EXISTS (SELECT 1 FROM `audit_context`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`url` IS NOT NEW.`url` OR OLD.`events` IS NOT NEW.`events` OR OLD.`description` IS NOT NEW.`description` OR OLD.`active` IS NOT NEW.`active` OR OLD.`secret` IS NOT NEW.`secret` OR OLD.`previous_secret` IS NOT NEW.`previous_secret` OR OLD.`previous_secret_expires_at` IS NOT NEW.`previous_secret_expires_at` OR OLD.`failing_since` IS NOT NEW.`failing_since` OR OLD.`disabled_at` IS NOT NEW.`disabled_at` OR OLD.`disabled_reason` IS NOT NEW.`disabled_reason`)
BEGIN
  INSERT INTO `audit_log` (`actor_kind`, `actor_id`, `actor_label`, `actor_role`, `resource`, `resource_id`, `action`, `changes`, `request_id`, `method`, `path`, `created_at`)
  SELECT ctx.`actor_kind`, ctx.`actor_id`, ctx.`actor_label`, ctx.`actor_role`, 'webhook', NEW.`id`, 'update',
  coalesce((SELECT json_group_object(key, json(value)) FROM json_each(json_object(
    'id', iif(OLD.`id` IS NOT NEW.`id`, json_object('before', OLD.`id`, 'after', NEW.`id`), NULL),
    'url', iif(OLD.`url` IS NOT NEW.`url`, json_object('before', OLD.`url`, 'after', NEW.`url`), NULL),
    'events', iif(OLD.`events` IS NOT NEW.`events`, json_object('before', iif(json_valid(OLD.`events`), json(OLD.`events`), OLD.`events`), 'after', iif(json_valid(NEW.`events`), json(NEW.`events`), NEW.`events`)), NULL),
    'description', iif(OLD.`description` IS NOT NEW.`description`, json_object('before', OLD.`description`, 'after', NEW.`description`), NULL),
    'active', iif(OLD.`active` IS NOT NEW.`active`, json_object('before', iif(OLD.`active` = 1, json('true'), iif(OLD.`active` = 0, json('false'), OLD.`active`)), 'after', iif(NEW.`active` = 1, json('true'), iif(NEW.`active` = 0, json('false'), NEW.`active`))), NULL),
    'secret', iif(OLD.`secret` IS NOT NEW.`secret`, json_object('before', iif(OLD.`secret` IS NULL, NULL, '[redacted]'), 'after', iif(NEW.`secret` IS NULL, NULL, '[redacted]')), NULL),
    'previousSecret', iif(OLD.`previous_secret` IS NOT NEW.`previous_secret`, json_object('before', iif(OLD.`previous_secret` IS NULL, NULL, '[redacted]'), 'after', iif(NEW.`previous_secret` IS NULL, NULL, '[redacted]')), NULL),
    'previousSecretExpiresAt', iif(OLD.`previous_secret_expires_at` IS NOT NEW.`previous_secret_expires_at`, json_object('before', iif(OLD.`previous_secret_expires_at` IS NULL, NULL, '[redacted]'), 'after', iif(NEW.`previous_secret_expires_at` IS NULL, NULL, '[redacted]')), NULL),
    'failingSince', iif(OLD.`failing_since` IS NOT NEW.`failing_since`, json_object('before', OLD.`failing_since`, 'after', NEW.`failing_since`), NULL),
    'disabledAt', iif(OLD.`disabled_at` IS NOT NEW.`disabled_at`, json_object('before', OLD.`disabled_at`, 'after', NEW.`disabled_at`), NULL),
    'disabledReason', iif(OLD.`disabled_reason` IS NOT NEW.`disabled_reason`, json_object('before', OLD.`disabled_reason`, 'after', NEW.`disabled_reason`), NULL)
  )) WHERE type <> 'null'), '{}'),
  ctx.`request_id`, ctx.`method`, ctx.`path`, ctx.`at`
  FROM `audit_context` ctx WHERE ctx.`id` = 1;
END;

CREATE TABLE `webhook_replays` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`from` text NOT NULL,
	`to` text NOT NULL,
	`types` text,
	`event_types` text NOT NULL,
	`matched` integer DEFAULT 0 NOT NULL,
	`queued` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`cursor` text,
	`error` text,
	`finished_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX `webhook_replays_endpoint_created_idx` ON `webhook_replays` (`endpoint_id`,`created_at`);

CREATE TABLE `write_guards` (
	`name` text NOT NULL,
	`ok` integer
);

CREATE TRIGGER `write_guards_check` BEFORE INSERT ON `write_guards`
BEGIN
  SELECT RAISE(ABORT, 'guard:stale_quote') WHERE NEW.`name` = 'stale_quote' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:stale_credential') WHERE NEW.`name` = 'stale_credential' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:payment_settled') WHERE NEW.`name` = 'payment_settled' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:refund_settled') WHERE NEW.`name` = 'refund_settled' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:return_settled') WHERE NEW.`name` = 'return_settled' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'write_guards: unknown guard') WHERE NEW.`ok` IS NOT 1;
  SELECT RAISE(IGNORE);
END;
