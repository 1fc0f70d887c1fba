CREATE TABLE `message_archives` (
	`key` text PRIMARY KEY NOT NULL,
	`org_id` integer NOT NULL,
	`month` text NOT NULL,
	`messages` integer NOT NULL,
	`first_id` integer NOT NULL,
	`last_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `message_archives_org_month` ON `message_archives` (`org_id`,`month`);--> statement-breakpoint
CREATE TABLE `org_usage` (
	`org_id` integer PRIMARY KEY NOT NULL,
	`file_bytes` integer DEFAULT 0 NOT NULL,
	`data_bytes` integer DEFAULT 0 NOT NULL,
	`data_measured_at` text,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `stored_files` (
	`key` text PRIMARY KEY NOT NULL,
	`org_id` integer NOT NULL,
	`kind` text NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stored_files_org_kind` ON `stored_files` (`org_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE INDEX `stored_files_kind_created` ON `stored_files` (`kind`,`created_at`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `message_retention_days` integer;--> statement-breakpoint
ALTER TABLE `org_daily_stats` ADD `data_bytes` integer;--> statement-breakpoint
ALTER TABLE `org_daily_stats` ADD `file_bytes` integer;--> statement-breakpoint
-- Files stored before the ledger existed: template attachments and import uploads (broadcast snapshot copies were not recorded; they are counted from their next copy on).
INSERT OR IGNORE INTO `stored_files` (`key`, `org_id`, `kind`, `bytes`, `created_at`) SELECT `file_key`, `org_id`, 'attachment', `size`, `created_at` FROM `template_attachments`;--> statement-breakpoint
INSERT OR IGNORE INTO `stored_files` (`key`, `org_id`, `kind`, `bytes`, `created_at`) SELECT `file_key`, `org_id`, 'import', `file_size`, `created_at` FROM `imports`;--> statement-breakpoint
INSERT INTO `org_usage` (`org_id`, `file_bytes`) SELECT `org_id`, sum(`bytes`) FROM `stored_files` GROUP BY `org_id`;
