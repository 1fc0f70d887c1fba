-- The tenant ledger (src/modules/ledger): a random key on each organisation names its ledgers (Durable Objects with
-- SQLite storage), the registry records them, and a ledger whose registry row goes (the organisation's cascade
-- included) is queued for the drainer by the trigger at the end. The send gate moved into the ledger, so the
-- integration's next_slot_at goes; held_until and throttle_level stay as the hold's copy.
CREATE TABLE `ledger_deletions` (
	`name` text PRIMARY KEY NOT NULL,
	`org_id` integer NOT NULL,
	`requested_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ledger_deletions_requested` ON `ledger_deletions` (`requested_at`);--> statement-breakpoint
CREATE TABLE `ledgers` (
	`name` text PRIMARY KEY NOT NULL,
	`org_id` integer NOT NULL,
	`generation` integer NOT NULL,
	`size_bytes` integer,
	`measured_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledgers_org_generation` ON `ledgers` (`org_id`,`generation`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `ledger_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_ledger_key_unique` ON `organizations` (`ledger_key`);--> statement-breakpoint
ALTER TABLE `integrations` DROP COLUMN `next_slot_at`;--> statement-breakpoint
CREATE TRIGGER `ledgers_queue_deletion` AFTER DELETE ON `ledgers` BEGIN
  INSERT OR IGNORE INTO `ledger_deletions` (`name`, `org_id`) VALUES (old.`name`, old.`org_id`);
END;
