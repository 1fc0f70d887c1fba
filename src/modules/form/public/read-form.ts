import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { formFieldSchema, type FormField } from '../../../shared/contracts/form';

// A form as its public endpoints read it: by its public key, within the organisation of the host (another
// organisation's key is not found), with the names of its subscriptions that still exist and its custom fields.

export interface CustomFieldInfo {
  id: number;
  name: string;
  type: string;
  options: { id: number; value: string }[];
}

export interface PublicForm {
  id: number;
  orgId: number;
  name: string;
  fields: FormField[];
  subscriptions: { id: number; name: string }[];
  doubleOptIn: boolean;
  successMessage: string | null;
  redirectUrl: string | null;
  allowedOrigins: string[];
  senderId: number | null;
  templateId: number | null;
  enabled: boolean;
  /** The custom fields the form asks, by alias (a field deleted since is left out). */
  custom: Map<string, CustomFieldInfo>;
}

interface FormRow {
  id: number;
  name: string;
  subscription_ids: string;
  fields: string;
  double_opt_in: number;
  success_message: string | null;
  redirect_url: string | null;
  allowed_origins: string;
  sender_id: number | null;
  template_id: number | null;
  enabled: number;
}

const parseList = <T>(text: string, item: (value: unknown) => T | null): T[] => {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.map(item).filter((x): x is T => x !== null) : [];
  } catch {
    return [];
  }
};

/** The organisation's form with this public key, or null. */
export async function readPublicForm(db: Database, orgId: number, publicKey: string): Promise<PublicForm | null> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(publicKey)) return null;
  const row = await db.get<FormRow | undefined>(sql`
    SELECT id, name, subscription_ids, fields, double_opt_in, success_message, redirect_url, allowed_origins, sender_id, template_id, enabled
    FROM forms WHERE public_key = ${publicKey} AND org_id = ${orgId}`);
  if (!row) return null;
  const subscriptionIds = parseList(row.subscription_ids, (v) => (typeof v === 'number' ? v : null));
  const fields = parseList(row.fields, (v) => formFieldSchema.safeParse(v).data ?? null);
  const aliases = fields.flatMap((f) => (f.kind === 'custom' && f.alias ? [f.alias] : []));
  const [subscriptions, custom] = await Promise.all([
    db.all<{ id: number; name: string }>(sql`
      SELECT id, name FROM subscriptions WHERE org_id = ${orgId} AND id IN (SELECT value FROM json_each(${JSON.stringify(subscriptionIds)}))
      ORDER BY priority, id`),
    aliases.length
      ? db.all<{ id: number; alias: string; name: string; type: string; options: string }>(sql`
          SELECT f.id, f.alias, f.name, f.type,
            coalesce((SELECT json_group_array(json_object('id', o.id, 'value', o.value)) FROM (SELECT id, value FROM field_options
              WHERE field_id = f.id AND org_id = ${orgId} ORDER BY position, id) o), '[]') AS options
          FROM fields f WHERE f.org_id = ${orgId} AND f.alias IN (SELECT value FROM json_each(${JSON.stringify(aliases)}))`)
      : Promise.resolve([]),
  ]);
  return {
    id: row.id,
    orgId,
    name: row.name,
    fields: fields.filter((f) => f.kind !== 'custom' || custom.some((c) => c.alias === f.alias)),
    subscriptions,
    doubleOptIn: Boolean(row.double_opt_in),
    successMessage: row.success_message,
    redirectUrl: row.redirect_url,
    allowedOrigins: parseList(row.allowed_origins, (v) => (typeof v === 'string' ? v : null)),
    senderId: row.sender_id,
    templateId: row.template_id,
    enabled: Boolean(row.enabled),
    custom: new Map(
      custom.map((c) => [
        c.alias,
        {
          id: c.id,
          name: c.name,
          type: c.type,
          options: parseList(c.options, (o) => (o && typeof o === 'object' ? (o as { id: number; value: string }) : null)),
        },
      ]),
    ),
  };
}
