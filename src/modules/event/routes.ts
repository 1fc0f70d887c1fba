import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validationFailed } from '../../lib/api-error';
import { EVENTS_PAGE_DEFAULT, eventsQuerySchema, splitEventTypes } from '../../shared/contracts/event-schemas';
import { fieldErrors } from '../../shared/zod-helpers';
import { decodeCursor } from './cursor';
import { pullEvents } from './pull';

// GET /api/v1/events (mounted with the entities, so signed in: users, personal keys, organisation keys of read or
// full scope): the organisation's stream, a page after a cursor (pull.ts).

export const eventRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const parsed = eventsQuerySchema.safeParse(c.req.query());
  if (!parsed.success) throw validationFailed(fieldErrors(parsed.error));
  const { after, types, limit } = parsed.data;
  const cursor = after === undefined ? {} : decodeCursor(after);
  if (!cursor) throw validationFailed({ after: ['Must be a next_cursor this API answered'] });
  const wanted = types === undefined ? null : splitEventTypes(types);
  return c.json(await pullEvents(c.env, c.var.db, c.var.org.id, cursor, wanted?.length ? wanted : null, limit ?? EVENTS_PAGE_DEFAULT));
});
