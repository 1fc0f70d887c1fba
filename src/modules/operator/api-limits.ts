import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { organizations } from '../../db/schema';
import { notFound } from '../../lib/api-error';
import { API_LIMIT_RANGES, type ApiLimitName } from '../../shared/contracts/org-api-key';
import { forgetOrgKeys } from '../api-key/authenticate';

// GET and PUT /operator/organizations/{domain}/api-limits: the operator's limits of an organisation's API keys (each
// key's and the whole organisation's requests per second and messages per hour, src/modules/api-key/rate-limit.ts).
// They take effect on the keys' next call: the auth middleware reads them with the key.

const rangeMessage = (name: ApiLimitName) =>
  `Must be a whole number from ${API_LIMIT_RANGES[name].min} to ${API_LIMIT_RANGES[name].max.toLocaleString('en-US')}`;

const limitField = (name: ApiLimitName) =>
  z
    .number({ error: rangeMessage(name) })
    .int(rangeMessage(name))
    .min(API_LIMIT_RANGES[name].min, rangeMessage(name))
    .max(API_LIMIT_RANGES[name].max, rangeMessage(name))
    .optional();

/** Any of the four limits; those left out stay as they are. */
export const apiLimitsUpdateSchema = z
  .object({
    key_requests_per_second: limitField('key_requests_per_second'),
    key_messages_per_hour: limitField('key_messages_per_hour'),
    org_requests_per_second: limitField('org_requests_per_second'),
    org_messages_per_hour: limitField('org_messages_per_hour'),
  })
  .strict()
  .refine((input) => Object.values(input).some((value) => value !== undefined), { message: 'Give at least one limit' });
export type ApiLimitsUpdate = z.infer<typeof apiLimitsUpdateSchema>;

export type ApiLimitsView = { domain: string } & Record<ApiLimitName, number>;

const COLUMNS = {
  key_requests_per_second: organizations.apiKeyRequestsPerSecond,
  key_messages_per_hour: organizations.apiKeyMessagesPerHour,
  org_requests_per_second: organizations.apiOrgRequestsPerSecond,
  org_messages_per_hour: organizations.apiOrgMessagesPerHour,
} as const;

const FIELDS = {
  key_requests_per_second: 'apiKeyRequestsPerSecond',
  key_messages_per_hour: 'apiKeyMessagesPerHour',
  org_requests_per_second: 'apiOrgRequestsPerSecond',
  org_messages_per_hour: 'apiOrgMessagesPerHour',
} as const;

/** The organisation's limits; 404 for an unknown domain. */
export async function readApiLimits(db: Database, domain: string): Promise<ApiLimitsView> {
  const [row] = await db
    .select({ domain: organizations.domain, ...COLUMNS })
    .from(organizations)
    .where(eq(organizations.domain, domain))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** Changes the limits given; answers all four as they now are (404 for an unknown domain). */
export async function writeApiLimits(db: Database, domain: string, input: ApiLimitsUpdate): Promise<ApiLimitsView> {
  const changes: Partial<Record<(typeof FIELDS)[ApiLimitName], number>> = {};
  for (const name of Object.keys(FIELDS) as ApiLimitName[]) {
    if (input[name] !== undefined) changes[FIELDS[name]] = input[name];
  }
  const [row] = await db
    .update(organizations)
    .set({ ...changes, updatedAt: new Date().toISOString() })
    .where(eq(organizations.domain, domain))
    .returning({ id: organizations.id, domain: organizations.domain, ...COLUMNS });
  if (!row) throw notFound();
  forgetOrgKeys(row.id); // this isolate's cached keys carry the old limits
  const { id: _id, ...view } = row;
  return view;
}
