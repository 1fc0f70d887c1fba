-- The event stream's D1 side and webhook endpoints (issue 38). `event_outbox` takes the events of what changes in D1,
-- in the same transaction as the change (the triggers below); the organisation's first ledger absorbs them into its
-- stream (src/modules/event/absorb.ts). contact.created and contact.updated carry only the contact's id here: the
-- absorber reads the contact as it then is. The other triggers keep what the change knew, since the row may be gone by
-- then. Each trigger checks the organisation still exists: an organisation's deletion writes no events.
CREATE TABLE `event_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`org_id` integer NOT NULL,
	`type` text NOT NULL,
	`contact_id` integer,
	`data` text,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `event_outbox_org` ON `event_outbox` (`org_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`event_types` text NOT NULL,
	`headers` text,
	`enabled` integer DEFAULT true NOT NULL,
	`batch` integer DEFAULT false NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_until` text,
	`disabled_reason` text,
	`disabled_at` text,
	`failing_since` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_org` ON `webhook_endpoints` (`org_id`);--> statement-breakpoint
CREATE TRIGGER `contacts_event_created` AFTER INSERT ON `contacts`
  WHEN EXISTS (SELECT 1 FROM `organizations` WHERE `id` = NEW.`org_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `at`)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.`org_id`, 'contact.created', NEW.`id`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_event_updated` AFTER UPDATE ON `contacts`
  WHEN EXISTS (SELECT 1 FROM `organizations` WHERE `id` = NEW.`org_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `at`)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.`org_id`, 'contact.updated', NEW.`id`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
-- Before the delete, while the contact's addresses are still there to name it.
CREATE TRIGGER `contacts_event_deleted` BEFORE DELETE ON `contacts`
  WHEN EXISTS (SELECT 1 FROM `organizations` WHERE `id` = OLD.`org_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `data`, `at`)
  VALUES ('evt_' || lower(hex(randomblob(16))), OLD.`org_id`, 'contact.deleted', OLD.`id`,
    json_object('contact', json_object('id', OLD.`id`, 'name', OLD.`name`,
      'emails', (SELECT json_group_array(`value`) FROM (SELECT `value` FROM `contact_addresses` WHERE `contact_id` = OLD.`id` AND `type` = 'email' ORDER BY `position`)),
      'phones', (SELECT json_group_array(`value`) FROM (SELECT `value` FROM `contact_addresses` WHERE `contact_id` = OLD.`id` AND `type` = 'phone' ORDER BY `position`)))),
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `unsubscribes_event_unsubscribed` AFTER INSERT ON `unsubscribes`
  WHEN EXISTS (SELECT 1 FROM `organizations` WHERE `id` = NEW.`org_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `data`, `at`)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.`org_id`, 'contact.unsubscribed', NEW.`contact_id`,
    json_object('contact_id', NEW.`contact_id`, 'subscription_id', NEW.`subscription_id`, 'message_id', NEW.`message_id`,
      'broadcast_id', NEW.`broadcast_id`, 'reason', NEW.`reason`, 'source', NEW.`source`),
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
-- Only a person's return: not the rows a contact's or a subscription's deletion takes with it.
CREATE TRIGGER `unsubscribes_event_resubscribed` AFTER DELETE ON `unsubscribes`
  WHEN EXISTS (SELECT 1 FROM `contacts` WHERE `id` = OLD.`contact_id`) AND EXISTS (SELECT 1 FROM `subscriptions` WHERE `id` = OLD.`subscription_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `data`, `at`)
  VALUES ('evt_' || lower(hex(randomblob(16))), OLD.`org_id`, 'contact.resubscribed', OLD.`contact_id`,
    json_object('contact_id', OLD.`contact_id`, 'subscription_id', OLD.`subscription_id`),
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `blacklist_event_suppressed` AFTER INSERT ON `blacklist`
  WHEN EXISTS (SELECT 1 FROM `organizations` WHERE `id` = NEW.`org_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `data`, `at`)
  SELECT 'evt_' || lower(hex(randomblob(16))), NEW.`org_id`, 'contact.suppressed', a.`contact_id`,
    json_object('address', json_object('type', NEW.`type`, 'value', NEW.`value`), 'contact_id', a.`contact_id`,
      'reason', NEW.`reason`, 'message_id', NEW.`message_id`),
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM (SELECT 1) LEFT JOIN `contact_addresses` a ON a.`org_id` = NEW.`org_id` AND a.`type` = NEW.`type` AND a.`value` = NEW.`value`;
END;
--> statement-breakpoint
CREATE TRIGGER `blacklist_event_unsuppressed` AFTER DELETE ON `blacklist`
  WHEN EXISTS (SELECT 1 FROM `organizations` WHERE `id` = OLD.`org_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `data`, `at`)
  SELECT 'evt_' || lower(hex(randomblob(16))), OLD.`org_id`, 'contact.unsuppressed', a.`contact_id`,
    json_object('address', json_object('type', OLD.`type`, 'value', OLD.`value`), 'contact_id', a.`contact_id`),
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM (SELECT 1) LEFT JOIN `contact_addresses` a ON a.`org_id` = OLD.`org_id` AND a.`type` = OLD.`type` AND a.`value` = OLD.`value`;
END;
--> statement-breakpoint
CREATE TRIGGER `sms_opt_outs_event_opted_out` AFTER INSERT ON `sms_opt_outs`
  WHEN EXISTS (SELECT 1 FROM `organizations` WHERE `id` = NEW.`org_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `data`, `at`)
  SELECT 'evt_' || lower(hex(randomblob(16))), NEW.`org_id`, 'sms.opted_out', a.`contact_id`,
    json_object('phone', NEW.`phone`, 'keyword', NEW.`keyword`, 'integration_id', NEW.`integration_id`, 'contact_id', a.`contact_id`),
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM (SELECT 1) LEFT JOIN `contact_addresses` a ON a.`org_id` = NEW.`org_id` AND a.`type` = 'phone' AND a.`value` = NEW.`phone`;
END;
--> statement-breakpoint
CREATE TRIGGER `sms_opt_outs_event_opted_in` AFTER DELETE ON `sms_opt_outs`
  WHEN EXISTS (SELECT 1 FROM `organizations` WHERE `id` = OLD.`org_id`) BEGIN
  INSERT INTO `event_outbox` (`event_id`, `org_id`, `type`, `contact_id`, `data`, `at`)
  SELECT 'evt_' || lower(hex(randomblob(16))), OLD.`org_id`, 'sms.opted_in', a.`contact_id`,
    json_object('phone', OLD.`phone`, 'contact_id', a.`contact_id`),
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM (SELECT 1) LEFT JOIN `contact_addresses` a ON a.`org_id` = OLD.`org_id` AND a.`type` = 'phone' AND a.`value` = OLD.`phone`;
END;
