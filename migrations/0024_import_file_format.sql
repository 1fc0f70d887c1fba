-- The file format of an import: the delimiter (comma, semicolon, tab) and the encoding (utf-8, windows-1252) the
-- console detected or the user chose; imports from before read as they did (comma, UTF-8).
ALTER TABLE `imports` ADD `delimiter` text DEFAULT 'comma' NOT NULL;--> statement-breakpoint
ALTER TABLE `imports` ADD `encoding` text DEFAULT 'utf-8' NOT NULL;