CREATE TABLE `unsubscribes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`subscription_id` integer NOT NULL,
	`message_id` integer,
	`reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `unsubscribes_org_subscription_contact` ON `unsubscribes` (`org_id`,`subscription_id`,`contact_id`);--> statement-breakpoint
CREATE INDEX `unsubscribes_contact` ON `unsubscribes` (`contact_id`);--> statement-breakpoint
CREATE TABLE `broadcasts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`name` text NOT NULL,
	`alias` text,
	`note` text,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`sender_id` integer,
	`template_id` integer,
	`subscription_id` integer,
	`do_not_unsubscribe` integer DEFAULT false NOT NULL,
	`skip_unsubscribed` integer DEFAULT true NOT NULL,
	`sleep` integer DEFAULT 0 NOT NULL,
	`delayed_at` text,
	`started_at` text,
	`finished_at` text,
	`contacts` text NOT NULL,
	`snapshot` text,
	`last_contact_id` integer,
	`cursor` integer DEFAULT 0 NOT NULL,
	`enumerated` integer DEFAULT false NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`sent` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`opens` integer DEFAULT 0 NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`unsubscribes` integer DEFAULT 0 NOT NULL,
	`paused_reason` text,
	`connect_failures` integer DEFAULT 0 NOT NULL,
	`held_until` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_id`) REFERENCES `senders`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `broadcasts_org_alias` ON `broadcasts` (`org_id`,`alias`);--> statement-breakpoint
CREATE INDEX `broadcasts_org_created` ON `broadcasts` (`org_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `broadcasts_org_status` ON `broadcasts` (`org_id`,`status`);--> statement-breakpoint
CREATE INDEX `broadcasts_org_name` ON `broadcasts` (`org_id`,`name`);--> statement-breakpoint
ALTER TABLE `integrations` ADD `max_rate` real;--> statement-breakpoint
ALTER TABLE `integrations` ADD `next_slot_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `integrations` ADD `held_until` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `integrations` ADD `throttle_level` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `retryable` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `claim` text;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_broadcast_contact` ON `messages` (`broadcast_id`,`contact_id`);--> statement-breakpoint
ALTER TABLE `system_mails` ADD `claim` text;