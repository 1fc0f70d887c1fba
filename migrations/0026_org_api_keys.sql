-- Organisation API keys (issue 36, src/modules/api-key): keys for the organisation's software, several per
-- organisation, named, scoped (send, read, full), live or test, kept only as a SHA-256 hash with a visible prefix,
-- revoked one by one. The operator's limits per key and per organisation (requests per second, messages per hour),
-- and the key that acted where a row records the user who did (the activity log, imports).
CREATE TABLE `org_api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`name` text NOT NULL,
	`scope` text NOT NULL,
	`test` integer DEFAULT false NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_by_user_id` integer,
	`last_used_at` text,
	`revoked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `org_api_keys_key_hash_unique` ON `org_api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `org_api_keys_org_created` ON `org_api_keys` (`org_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `api_key_requests_per_second` integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `api_key_messages_per_hour` integer DEFAULT 10000 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `api_org_requests_per_second` integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `api_org_messages_per_hour` integer DEFAULT 50000 NOT NULL;--> statement-breakpoint
ALTER TABLE `activity_log` ADD `api_key_id` integer;--> statement-breakpoint
ALTER TABLE `imports` ADD `api_key_id` integer;