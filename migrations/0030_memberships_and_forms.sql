-- Memberships and hosted forms (issue 39, src/modules/membership, src/modules/form). A contact's standing in each
-- subscription is a `subscription_members` row (pending, confirmed, unsubscribed, with its source and the sign-up that
-- gave consent); a contact the organisation added ('implied', every contact until now) is a member of every
-- subscription where no row says otherwise, so nobody gains or loses mail: the only rows today's data needs are the
-- unsubscribed ones, copied below. From here the unsubscribes table (the act of leaving, with its reason) and the
-- unsubscribed rows are kept together by triggers: the unsubscribe store stays the one writer of leaving and joining.
CREATE TABLE `subscription_members` (
	`org_id` integer NOT NULL,
	`subscription_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`consent_id` integer,
	`expires_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`subscription_id`, `contact_id`),
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subscription_members_contact` ON `subscription_members` (`contact_id`);--> statement-breakpoint
CREATE INDEX `subscription_members_org_status` ON `subscription_members` (`org_id`,`subscription_id`,`status`);--> statement-breakpoint
CREATE INDEX `subscription_members_expiry` ON `subscription_members` (`expires_at`);--> statement-breakpoint
CREATE TABLE `consents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`form_id` integer,
	`form_name` text NOT NULL,
	`subscription_ids` text NOT NULL,
	`signed_up_at` text NOT NULL,
	`signup_user_agent` text,
	`signup_ip_hash` text,
	`token_hash` text,
	`confirmed_at` text,
	`confirm_user_agent` text,
	`confirm_ip_hash` text,
	`expires_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `consents_contact` ON `consents` (`contact_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `consents_token` ON `consents` (`token_hash`);--> statement-breakpoint
CREATE INDEX `consents_org_form` ON `consents` (`org_id`,`form_id`);--> statement-breakpoint
CREATE TABLE `forms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`public_key` text NOT NULL,
	`name` text NOT NULL,
	`subscription_ids` text NOT NULL,
	`fields` text NOT NULL,
	`double_opt_in` integer DEFAULT true NOT NULL,
	`success_message` text,
	`redirect_url` text,
	`allowed_origins` text DEFAULT '[]' NOT NULL,
	`sender_id` integer,
	`template_id` integer,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `forms_public_key` ON `forms` (`public_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `forms_org_name` ON `forms` (`org_id`,`name`);--> statement-breakpoint
ALTER TABLE `contacts` ADD `membership` text DEFAULT 'implied' NOT NULL;
--> statement-breakpoint
INSERT INTO `subscription_members` (`org_id`, `subscription_id`, `contact_id`, `status`, `source`, `created_at`, `updated_at`)
  SELECT `org_id`, `subscription_id`, `contact_id`, 'unsubscribed', 'migration', `created_at`, `updated_at` FROM `unsubscribes`;
--> statement-breakpoint
CREATE TRIGGER `unsubscribes_member_left` AFTER INSERT ON `unsubscribes` BEGIN
  INSERT INTO `subscription_members` (`org_id`, `subscription_id`, `contact_id`, `status`, `source`)
  VALUES (NEW.`org_id`, NEW.`subscription_id`, NEW.`contact_id`, 'unsubscribed', 'unsubscribe')
  ON CONFLICT (`subscription_id`, `contact_id`) DO UPDATE SET `status` = 'unsubscribed', `source` = 'unsubscribe', `expires_at` = NULL,
    `updated_at` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now');
END;
--> statement-breakpoint
-- Joining again (the preferences page, the console) is the person's or the organisation's word: confirmed.
CREATE TRIGGER `unsubscribes_member_rejoined` AFTER DELETE ON `unsubscribes` BEGIN
  UPDATE `subscription_members` SET `status` = 'confirmed', `source` = 'resubscribe', `updated_at` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  WHERE `subscription_id` = OLD.`subscription_id` AND `contact_id` = OLD.`contact_id` AND `status` = 'unsubscribed';
END;
--> statement-breakpoint
-- contact.subscribed: a membership confirmed (added so, or a pending one confirmed); not the copied rows above.
CREATE TRIGGER `subscription_members_event_added` AFTER INSERT ON `subscription_members`
  WHEN NEW.`status` = 'confirmed' AND EXISTS (SELECT 1 FROM `organizations` WHERE `id` = NEW.`org_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `data`, `at`)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.`org_id`, 'contact.subscribed', NEW.`contact_id`,
    json_object('contact_id', NEW.`contact_id`, 'subscription_id', NEW.`subscription_id`, 'source', NEW.`source`, 'consent_id', NEW.`consent_id`),
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `subscription_members_event_confirmed` AFTER UPDATE OF `status` ON `subscription_members`
  WHEN OLD.`status` = 'pending' AND NEW.`status` = 'confirmed' AND EXISTS (SELECT 1 FROM `organizations` WHERE `id` = NEW.`org_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `data`, `at`)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.`org_id`, 'contact.subscribed', NEW.`contact_id`,
    json_object('contact_id', NEW.`contact_id`, 'subscription_id', NEW.`subscription_id`, 'source', NEW.`source`, 'consent_id', NEW.`consent_id`),
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
