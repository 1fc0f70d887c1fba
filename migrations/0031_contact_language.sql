-- The language a contact reads (issue 39, the preferences page): one of the eight, null when unknown. The preferences
-- page opens in it and the recipient may change it there; the organisation reads and writes it through the contact API.
ALTER TABLE `contacts` ADD `language` text;