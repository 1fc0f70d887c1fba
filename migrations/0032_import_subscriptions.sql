-- Subscriptions every contact of an import joins as a confirmed member, source 'import' (issue 39: the organisation
-- collected the consent elsewhere). Imports from before had none.
ALTER TABLE `imports` ADD `subscription_ids` text DEFAULT '[]' NOT NULL;