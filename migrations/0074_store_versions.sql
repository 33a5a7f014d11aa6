-- Dated API versions (src/versions/, docs/versioning.md): a key answers in the version pinned on it,
-- a request with neither a Store-Version header nor a key in the store's default. Every key and the
-- store start on 2026-11-20, the published contract, so no existing client sees another shape.
ALTER TABLE `api_keys` ADD `api_version` text DEFAULT '2026-11-20' NOT NULL;--> statement-breakpoint
ALTER TABLE `store_settings` ADD `api_version` text DEFAULT '2026-11-20' NOT NULL;