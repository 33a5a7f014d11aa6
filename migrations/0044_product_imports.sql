CREATE TABLE `import_chunks` (
	`import_id` text NOT NULL,
	`n` integer NOT NULL,
	`plans` text NOT NULL,
	PRIMARY KEY(`import_id`, `n`)
);
--> statement-breakpoint
CREATE TABLE `import_failures` (
	`import_id` text NOT NULL,
	`line` integer NOT NULL,
	`column` text NOT NULL,
	`reason` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `import_failures_import_idx` ON `import_failures` (`import_id`,`line`);--> statement-breakpoint
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
);
--> statement-breakpoint
CREATE INDEX `imports_created_idx` ON `imports` (`created_at`);