ALTER TABLE `api_keys` ADD `type` text DEFAULT 'secret' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `allowed_origins` text DEFAULT '[]' NOT NULL;