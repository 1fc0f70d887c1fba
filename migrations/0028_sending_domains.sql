-- Sending domains (issue 37, src/modules/domain): an organisation's domains, proved by a TXT record, each with the DKIM
-- key Relay signs with (sealed like integration secrets) and a rotation's next key, the last check of its records, and
-- when a break was found and told. One verified row per domain name (a partial unique index). Per integration, whether
-- Relay signs (dkim_signing, default on) or the provider does.
CREATE TABLE `sending_domains` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`domain` text NOT NULL,
	`verification_token` text NOT NULL,
	`verified_at` text,
	`dkim_selector` text NOT NULL,
	`dkim_public_key` text NOT NULL,
	`dkim_private_key` text NOT NULL,
	`next_dkim_selector` text,
	`next_dkim_public_key` text,
	`next_dkim_private_key` text,
	`checks` text,
	`checked_at` text,
	`broken_since` text,
	`broken_notified_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sending_domains_org_domain` ON `sending_domains` (`org_id`,`domain`);--> statement-breakpoint
CREATE UNIQUE INDEX `sending_domains_verified_domain` ON `sending_domains` (`domain`) WHERE verified_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `sending_domains_checked` ON `sending_domains` (`checked_at`);--> statement-breakpoint
ALTER TABLE `integrations` ADD `dkim_signing` integer DEFAULT true NOT NULL;