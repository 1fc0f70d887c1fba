import type { Env } from '../../env';
import { orgFilesPrefix } from '../../lib/r2-prefix';
import type { SendOptions } from '../../shared/contracts/transactional';
import type { ReadySend } from './prepare';

// Attachments sent inline go to R2 before their message is queued (a queue message holds 128 KB; the consumer reads
// the files back as it reads a template's), under the organisation's folder, so they go with it.

type Stored = NonNullable<SendOptions['attachments']>;

/** Stores each ready send's inline files; answers their stored references, per send. */
export async function storeInlineFiles(env: Pick<Env, 'FILES'>, orgId: number, sends: ReadySend[]): Promise<Stored[]> {
  return Promise.all(
    sends.map((send) =>
      Promise.all(
        send.inline.map(async (file) => {
          const key = `${orgFilesPrefix(orgId)}messages/${crypto.randomUUID()}`;
          await env.FILES.put(key, file.bytes, { httpMetadata: { contentType: file.contentType } });
          return { key, filename: file.filename, contentType: file.contentType, size: file.bytes.length };
        }),
      ),
    ),
  );
}
