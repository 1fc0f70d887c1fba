import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { contacts } from '../../db/schema';
import { validJson, validQuery } from '../../lib/validate';
import { eraseRequestSchema, exportQuerySchema } from '../../shared/contracts/privacy';
import { rowOr404 } from '../crud/rows';
import { eraseContact } from './erase/erase-contact';
import { exportResponse } from './export/export-response';

// A person's data requests on the contact's path (GDPR articles 15, 17 and 20): GET /contact/{id}/export answers
// everything the organisation keeps of the contact, streamed, as JSON or a readable page; POST /contact/{id}/erase
// removes it everywhere the product keeps it, confirmed by typing one of the contact's addresses.

export const contactPrivacyRoutes = new Hono<AppEnv>()
  .get('/:id/export', validQuery(exportQuerySchema), async (c) => {
    const contact = await rowOr404(c, contacts);
    return exportResponse(c, contact, c.req.valid('query').format);
  })
  .post('/:id/erase', validJson(eraseRequestSchema), async (c) => {
    const contact = await rowOr404(c, contacts);
    return c.json({ data: await eraseContact(c, contact, c.req.valid('json').confirm) });
  });
