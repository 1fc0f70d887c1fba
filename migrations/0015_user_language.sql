-- The console language a user chose, kept for their next session (PUT /internal-user/:id/language).
ALTER TABLE `users` ADD `language` text;