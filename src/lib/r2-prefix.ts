// Deleting R2 folders: an organisation's files all live under orgs/{org}/ (import files, template attachments).

/** The R2 folder of everything an organisation stored. */
export const orgFilesPrefix = (orgId: number) => `orgs/${orgId}/`;

/**
 * Deletes the R2 objects under a prefix, a listing page (at most 1000 keys) at a time; with `keep`, only the
 * keys it accepts. Returns how many were deleted.
 */
export async function deleteR2Prefix(bucket: R2Bucket, prefix: string, keep?: (key: string) => boolean): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, limit: 1000 });
    const keys = page.objects.map((o) => o.key).filter((key) => !keep || keep(key));
    if (keys.length) await bucket.delete(keys);
    deleted += keys.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}
