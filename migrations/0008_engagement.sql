CREATE TABLE `sms_opt_outs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`phone` text NOT NULL,
	`keyword` text NOT NULL,
	`integration_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sms_opt_outs_org_phone` ON `sms_opt_outs` (`org_id`,`phone`);--> statement-breakpoint
CREATE TABLE `broadcast_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`broadcast_id` integer NOT NULL,
	`link_index` integer NOT NULL,
	`url` text NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`clicks_unique` integer DEFAULT 0 NOT NULL,
	`human_clicks` integer DEFAULT 0 NOT NULL,
	`human_clicks_unique` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `broadcast_links_org_broadcast_link` ON `broadcast_links` (`org_id`,`broadcast_id`,`link_index`);--> statement-breakpoint
CREATE TABLE `tracking_events` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`broadcast_id` integer,
	`kind` text NOT NULL,
	`link_index` integer,
	`url` text,
	`class` text NOT NULL,
	`reason` text NOT NULL,
	`method` text NOT NULL,
	`user_agent` text,
	`ip_hash` text,
	`asn` integer,
	`as_organization` text,
	`at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tracking_events_org_message` ON `tracking_events` (`org_id`,`message_id`,`at`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `track_opens` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `track_clicks` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `unsubscribes` ADD `broadcast_id` integer;--> statement-breakpoint
ALTER TABLE `unsubscribes` ADD `comment` text;--> statement-breakpoint
ALTER TABLE `unsubscribes` ADD `source` text;--> statement-breakpoint
CREATE INDEX `unsubscribes_org_broadcast` ON `unsubscribes` (`org_id`,`broadcast_id`);--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `track_opens` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `track_clicks` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `opens_unique` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `human_opens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `human_opens_unique` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `clicks_unique` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `human_clicks` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `human_clicks_unique` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `opened_at` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `human_opens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `human_clicks` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `human_opened_at` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `human_clicked_at` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `delivery_status` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `delivery_error_code` text;