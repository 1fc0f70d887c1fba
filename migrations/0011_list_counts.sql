CREATE TABLE `list_counts` (
	`org_id` integer NOT NULL,
	`list` text NOT NULL,
	`key` integer DEFAULT 0 NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`org_id`, `list`, `key`),
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contacts_org` ON `contacts` (`org_id`);--> statement-breakpoint
CREATE INDEX `messages_org` ON `messages` (`org_id`);--> statement-breakpoint
-- The kept counts follow their rows in the same write (so they cannot drift with a crash between two statements):
-- every insert and delete of contacts, contact_tags and messages, including deletes that cascade from an
-- organisation, a contact or a tag. src/modules/stats/list-counts.ts reads them and repairs them.
CREATE TRIGGER `list_counts_contact_insert` AFTER INSERT ON `contacts` BEGIN
  INSERT INTO `list_counts` (`org_id`, `list`, `key`, `n`) VALUES (NEW.`org_id`, 'contacts', 0, 1)
    ON CONFLICT (`org_id`, `list`, `key`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `list_counts_contact_delete` AFTER DELETE ON `contacts` BEGIN
  UPDATE `list_counts` SET `n` = `n` - 1 WHERE `org_id` = OLD.`org_id` AND `list` = 'contacts' AND `key` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `list_counts_contact_tag_insert` AFTER INSERT ON `contact_tags` BEGIN
  INSERT INTO `list_counts` (`org_id`, `list`, `key`, `n`) VALUES (NEW.`org_id`, 'tag', NEW.`tag_id`, 1)
    ON CONFLICT (`org_id`, `list`, `key`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `list_counts_contact_tag_delete` AFTER DELETE ON `contact_tags` BEGIN
  UPDATE `list_counts` SET `n` = `n` - 1 WHERE `org_id` = OLD.`org_id` AND `list` = 'tag' AND `key` = OLD.`tag_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `list_counts_tag_delete` AFTER DELETE ON `tags` BEGIN
  DELETE FROM `list_counts` WHERE `org_id` = OLD.`org_id` AND `list` = 'tag' AND `key` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `list_counts_message_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `list_counts` (`org_id`, `list`, `key`, `n`) VALUES (NEW.`org_id`, 'messages', 0, 1)
    ON CONFLICT (`org_id`, `list`, `key`) DO UPDATE SET `n` = `n` + 1;
  INSERT INTO `list_counts` (`org_id`, `list`, `key`, `n`) SELECT NEW.`org_id`, 'broadcast_messages', NEW.`broadcast_id`, 1 WHERE NEW.`broadcast_id` IS NOT NULL
    ON CONFLICT (`org_id`, `list`, `key`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `list_counts_message_delete` AFTER DELETE ON `messages` BEGIN
  UPDATE `list_counts` SET `n` = `n` - 1 WHERE `org_id` = OLD.`org_id` AND ((`list` = 'messages' AND `key` = 0) OR (`list` = 'broadcast_messages' AND `key` = OLD.`broadcast_id`));
END;
--> statement-breakpoint
INSERT INTO `list_counts` (`org_id`, `list`, `key`, `n`) SELECT `org_id`, 'contacts', 0, count(*) FROM `contacts` GROUP BY `org_id`;
--> statement-breakpoint
INSERT INTO `list_counts` (`org_id`, `list`, `key`, `n`) SELECT `org_id`, 'tag', `tag_id`, count(*) FROM `contact_tags` GROUP BY `org_id`, `tag_id`;
--> statement-breakpoint
INSERT INTO `list_counts` (`org_id`, `list`, `key`, `n`) SELECT `org_id`, 'messages', 0, count(*) FROM `messages` GROUP BY `org_id`;
--> statement-breakpoint
INSERT INTO `list_counts` (`org_id`, `list`, `key`, `n`) SELECT `org_id`, 'broadcast_messages', `broadcast_id`, count(*) FROM `messages` WHERE `broadcast_id` IS NOT NULL GROUP BY `org_id`, `broadcast_id`;
