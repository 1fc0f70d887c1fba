CREATE TABLE `activity_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`user_id` integer,
	`entity` text NOT NULL,
	`entity_id` integer,
	`action` text NOT NULL,
	`field` text NOT NULL,
	`previous_value` text,
	`new_value` text,
	`browser` text,
	`os` text,
	`device` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `activity_log_org_created` ON `activity_log` (`org_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `activity_log_org_entity` ON `activity_log` (`org_id`,`entity`,`entity_id`);--> statement-breakpoint
CREATE TABLE `blacklist` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`type` text NOT NULL,
	`value` text NOT NULL,
	`info` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `blacklist_org_type_value` ON `blacklist` (`org_id`,`type`,`value`);--> statement-breakpoint
CREATE INDEX `blacklist_org_created` ON `blacklist` (`org_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `contact_addresses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`type` text NOT NULL,
	`value` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_addresses_org_type_value` ON `contact_addresses` (`org_id`,`type`,`value`);--> statement-breakpoint
CREATE INDEX `contact_addresses_contact` ON `contact_addresses` (`contact_id`,`position`);--> statement-breakpoint
CREATE INDEX `contact_addresses_org_value` ON `contact_addresses` (`org_id`,`value`);--> statement-breakpoint
CREATE TABLE `contact_attributes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`field_id` integer NOT NULL,
	`value_text` text,
	`value_number` real,
	`option_id` integer,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`field_id`) REFERENCES `fields`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`option_id`) REFERENCES `field_options`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_attributes_contact` ON `contact_attributes` (`contact_id`,`field_id`);--> statement-breakpoint
CREATE INDEX `contact_attributes_org_field_text` ON `contact_attributes` (`org_id`,`field_id`,`value_text`);--> statement-breakpoint
CREATE INDEX `contact_attributes_org_field_number` ON `contact_attributes` (`org_id`,`field_id`,`value_number`);--> statement-breakpoint
CREATE INDEX `contact_attributes_org_option` ON `contact_attributes` (`org_id`,`option_id`);--> statement-breakpoint
CREATE TABLE `contact_tags` (
	`org_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`tag_id` integer NOT NULL,
	PRIMARY KEY(`contact_id`, `tag_id`),
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_tags_org_tag` ON `contact_tags` (`org_id`,`tag_id`,`contact_id`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`name` text NOT NULL,
	`note` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contacts_org_name` ON `contacts` (`org_id`,`name`);--> statement-breakpoint
CREATE INDEX `contacts_org_created` ON `contacts` (`org_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `contacts_org_updated` ON `contacts` (`org_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `field_options` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`field_id` integer NOT NULL,
	`value` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`field_id`) REFERENCES `fields`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `field_options_field_value` ON `field_options` (`field_id`,`value`);--> statement-breakpoint
CREATE INDEX `field_options_org_field` ON `field_options` (`org_id`,`field_id`);--> statement-breakpoint
CREATE TABLE `fields` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`name` text NOT NULL,
	`alias` text NOT NULL,
	`type` text NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fields_org_alias` ON `fields` (`org_id`,`alias`);--> statement-breakpoint
CREATE INDEX `fields_org_priority` ON `fields` (`org_id`,`priority`);--> statement-breakpoint
CREATE TABLE `imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`user_id` integer,
	`file_name` text NOT NULL,
	`file_key` text NOT NULL,
	`file_size` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'new' NOT NULL,
	`skip_first_line` integer DEFAULT true NOT NULL,
	`mapping` text NOT NULL,
	`created_count` integer DEFAULT 0 NOT NULL,
	`updated_count` integer DEFAULT 0 NOT NULL,
	`rejected_count` integer DEFAULT 0 NOT NULL,
	`rejections` text,
	`cursor_bytes` integer DEFAULT 0 NOT NULL,
	`cursor_row` integer DEFAULT 0 NOT NULL,
	`error` text,
	`finished_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `imports_org_created` ON `imports` (`org_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`name` text NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_org_name` ON `subscriptions` (`org_id`,`name`);--> statement-breakpoint
CREATE INDEX `subscriptions_org_priority` ON `subscriptions` (`org_id`,`priority`);--> statement-breakpoint
CREATE TABLE `campaign_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`campaign_id` integer NOT NULL,
	`template_id` integer NOT NULL,
	`sender_id` integer NOT NULL,
	`to_address` text,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_id`) REFERENCES `senders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `campaign_settings_campaign` ON `campaign_settings` (`org_id`,`campaign_id`,`position`);--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`name` text NOT NULL,
	`alias` text,
	`note` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaigns_org_alias` ON `campaigns` (`org_id`,`alias`);--> statement-breakpoint
CREATE INDEX `campaigns_org_name` ON `campaigns` (`org_id`,`name`);--> statement-breakpoint
CREATE TABLE `integrations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`note` text,
	`details` text NOT NULL,
	`secret` text NOT NULL,
	`should_merge` integer DEFAULT true NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `integrations_org_priority` ON `integrations` (`org_id`,`priority`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`type` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`sender_id` integer,
	`template_id` integer,
	`contact_id` integer,
	`broadcast_id` integer,
	`is_test` integer DEFAULT false NOT NULL,
	`from_address` text NOT NULL,
	`from_name` text,
	`to_address` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`body_plain` text,
	`delayed_at` text,
	`sent_at` text,
	`external_id` text,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`opens_total` integer DEFAULT 0 NOT NULL,
	`opens_unique` integer DEFAULT 0 NOT NULL,
	`clicks_total` integer DEFAULT 0 NOT NULL,
	`clicks_unique` integer DEFAULT 0 NOT NULL,
	`clicked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_id`) REFERENCES `senders`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `messages_org_created` ON `messages` (`org_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_org_status` ON `messages` (`org_id`,`status`);--> statement-breakpoint
CREATE INDEX `messages_org_broadcast` ON `messages` (`org_id`,`broadcast_id`);--> statement-breakpoint
CREATE INDEX `messages_external` ON `messages` (`external_id`);--> statement-breakpoint
CREATE TABLE `senders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`integration_id` integer NOT NULL,
	`type` text NOT NULL,
	`value` text NOT NULL,
	`name` text,
	`note` text,
	`priority` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`integration_id`) REFERENCES `integrations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `senders_org_integration_type_value` ON `senders` (`org_id`,`integration_id`,`type`,`value`);--> statement-breakpoint
CREATE INDEX `senders_org_priority` ON `senders` (`org_id`,`priority`);--> statement-breakpoint
CREATE TABLE `template_attachments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`template_id` integer NOT NULL,
	`file_name` text NOT NULL,
	`file_key` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `template_attachments_template` ON `template_attachments` (`org_id`,`template_id`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`alias` text,
	`note` text,
	`subject` text,
	`body` text NOT NULL,
	`body_plain` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `templates_org_alias` ON `templates` (`org_id`,`alias`);--> statement-breakpoint
CREATE INDEX `templates_org_name` ON `templates` (`org_id`,`name`);--> statement-breakpoint
CREATE INDEX `templates_org_updated` ON `templates` (`org_id`,`updated_at`);