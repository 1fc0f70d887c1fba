-- Substring search over contacts (name, note) and their address values through FTS5 trigram indexes, so
-- "search" on a large organisation does not scan every row (LIKE '%text%' cannot use a b-tree index).
-- Written by hand: drizzle-kit does not model virtual tables or triggers. Triggers keep both indexes in step
-- with every write path (the contact form, the CSV import, deletes and cascades).
CREATE VIRTUAL TABLE `contact_text_search` USING fts5(`org_id` UNINDEXED, `body`, tokenize = 'trigram');
--> statement-breakpoint
CREATE VIRTUAL TABLE `contact_address_search` USING fts5(`org_id` UNINDEXED, `contact_id` UNINDEXED, `value`, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `contact_text_search` (rowid, org_id, body) SELECT id, org_id, name || ' ' || COALESCE(note, '') FROM `contacts`;
--> statement-breakpoint
INSERT INTO `contact_address_search` (rowid, org_id, contact_id, value) SELECT id, org_id, contact_id, value FROM `contact_addresses`;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_insert` AFTER INSERT ON `contacts` BEGIN
  INSERT INTO `contact_text_search` (rowid, org_id, body) VALUES (new.id, new.org_id, new.name || ' ' || COALESCE(new.note, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_update` AFTER UPDATE OF `name`, `note` ON `contacts` BEGIN
  DELETE FROM `contact_text_search` WHERE rowid = old.id;
  INSERT INTO `contact_text_search` (rowid, org_id, body) VALUES (new.id, new.org_id, new.name || ' ' || COALESCE(new.note, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_delete` AFTER DELETE ON `contacts` BEGIN
  DELETE FROM `contact_text_search` WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `contact_addresses_search_insert` AFTER INSERT ON `contact_addresses` BEGIN
  INSERT INTO `contact_address_search` (rowid, org_id, contact_id, value) VALUES (new.id, new.org_id, new.contact_id, new.value);
END;
--> statement-breakpoint
CREATE TRIGGER `contact_addresses_search_update` AFTER UPDATE OF `value`, `contact_id` ON `contact_addresses` BEGIN
  DELETE FROM `contact_address_search` WHERE rowid = old.id;
  INSERT INTO `contact_address_search` (rowid, org_id, contact_id, value) VALUES (new.id, new.org_id, new.contact_id, new.value);
END;
--> statement-breakpoint
CREATE TRIGGER `contact_addresses_search_delete` AFTER DELETE ON `contact_addresses` BEGIN
  DELETE FROM `contact_address_search` WHERE rowid = old.id;
END;
