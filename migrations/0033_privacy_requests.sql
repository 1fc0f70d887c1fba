-- A person's data requests (issue 40, src/modules/privacy): the "do not re-add" list of erased addresses (keyed hashes)
-- and the journal of erasures, which holds the person's addresses only while the erasure runs.
CREATE TABLE `erased_addresses` (
	`org_id` integer NOT NULL,
	`digest` text NOT NULL,
	`erased_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`org_id`, `digest`),
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `erasures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`state` text DEFAULT 'running' NOT NULL,
	`subject` text,
	`summary` text,
	`user_id` integer,
	`api_key_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `erasures_org_state` ON `erasures` (`org_id`,`state`);