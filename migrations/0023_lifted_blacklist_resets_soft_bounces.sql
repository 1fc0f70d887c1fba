-- An email address that leaves an organisation's blacklist (lifted on the contact, deleted on the blacklist page, one
-- or many) starts its soft bounces again from nothing: one rule, wherever the entry goes. Without it an address
-- suppressed for repeated soft bounces and then deleted from the blacklist went straight back on at its next one.
CREATE TRIGGER `blacklist_delete_soft_bounces` AFTER DELETE ON `blacklist` WHEN OLD.`type` = 'email' BEGIN
  DELETE FROM `soft_bounces` WHERE `org_id` = OLD.`org_id` AND `address` = OLD.`value`;
END;
