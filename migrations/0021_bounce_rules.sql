-- Issue 24's rules for bounces and complaints (src/modules/bounce): soft bounces counted per address until the
-- organisation's limit within its window suppresses it; the blacklist says why the platform added an address and which
-- message did it; the days' bounces and complaints for the dashboard (written by the ledgers, ledger step 7: D1's
-- table keeps the same shape).
CREATE TABLE `soft_bounces` (
	`org_id` integer NOT NULL,
	`address` text NOT NULL,
	`count` integer NOT NULL,
	`since` text NOT NULL,
	`last_message_id` integer NOT NULL,
	PRIMARY KEY(`org_id`, `address`),
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `organizations` ADD `soft_bounce_limit` integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `soft_bounce_days` integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE `blacklist` ADD `reason` text;--> statement-breakpoint
ALTER TABLE `blacklist` ADD `message_id` integer;--> statement-breakpoint
ALTER TABLE `org_daily_stats` ADD `bounces` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `org_daily_stats` ADD `complaints` integer DEFAULT 0 NOT NULL;