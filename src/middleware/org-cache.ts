import type { Organization } from '../context';
import { IsolateCache } from '../lib/isolate-cache';

/**
 * Organisations by their label (tenant.ts), for a few seconds: every request names one, and its id, name and label
 * change only when it is renamed, deleted or (the demo) replaced, which call forgetOrganizations. Other isolates see
 * such a change within the 5 s.
 */
export const organizationsByLabel = new IsolateCache<string, Organization>(5_000);

/** After an organisation's name or label changed or it went: this isolate reads them again. */
export const forgetOrganizations = () => organizationsByLabel.forget();
