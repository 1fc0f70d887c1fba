import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../db/client';
import { contacts } from '../../../db/schema';
import { isLanguage, LANGUAGES, type LanguageCode } from '../../../shared/languages';
import { requiredText } from '../../../shared/zod-helpers';
import type { Who } from '../store';

// The contact's own details on the preferences page: the name (as the contact API limits it) and the language the
// contact reads (one of the eight, or none). The page's form posts them together.

export const CONTACT_NAME_MAX = 200;

/** The details form: empty language means "not set". */
export const profileForm = z.object({
  name: requiredText(CONTACT_NAME_MAX),
  language: z.union([z.literal('').transform(() => null), z.enum(LANGUAGES)]),
});

export interface Profile {
  name: string;
  language: LanguageCode | null;
}

/** The contact's name and language (the link was checked: the contact is the organisation's). */
export async function profileOf(db: Database, who: Who): Promise<Profile> {
  const row = await db.get<{ name: string; language: string | null } | undefined>(
    sql`SELECT name, language FROM ${contacts} WHERE id = ${who.contactId} AND org_id = ${who.orgId}`,
  );
  return { name: row?.name ?? '', language: isLanguage(row?.language) ? row.language : null };
}

/** Writes the contact's name and language. */
export async function saveProfile(db: Database, who: Who, profile: Profile): Promise<void> {
  await db.run(sql`UPDATE ${contacts} SET name = ${profile.name}, language = ${profile.language},
    updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ${who.contactId} AND org_id = ${who.orgId}`);
}
