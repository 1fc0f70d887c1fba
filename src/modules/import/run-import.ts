// The import job: streams the file from R2 from the import's cursor, applies the rules, and writes contacts
// in batches, each committed together with the cursor. Idempotent and resumable: a redelivered or retried
// message resumes after the last committed batch, a finished import is left alone, and two runs of the same
// import cannot both commit a batch (batch-writer.ts `guard`). A run stops after a time slice and queues its
// own continuation, so no single invocation has to fit a whole 100 MB file into its CPU limit.
import { and, eq, inArray } from 'drizzle-orm';
import { createDb } from '../../db/client';
import { fields as fieldsTable, imports, tags as tagsTable } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import type { Env } from '../../env';
import type { FieldType } from '../../shared/contracts/field';
import { IMPORT_MAX_REJECTIONS, IMPORT_MESSAGES, type ImportMappingEntry, type ImportRejection } from '../../shared/contracts/import';
import { publishToOrg } from '../live/publish';
import { planBatch, type ResolvedAttribute, type ResolvedRow } from './batch-plan';
import { batchStatements, findAddressOwners } from './batch-writer';
import { CsvScanner, type CsvDelimiter, type CsvEncoding, type CsvRecord } from '../../shared/csv-scanner';
import { fileSize, ImportFileMissing, newReadStats, readFileFrom, type ReadStats } from './file-reader';
import { peekFile } from './file-peek';
import { IMPORT_MAX_FIELD_OPTIONS, OptionIds, TagIds } from './lookups';
import { summarizeImport } from './presenter';
import { compileMapping, toRowChange, type CompiledMapping, type FieldMeta } from './row-rules';
import { announceEvents } from '../event/announce';
import { erasedAmong, hasErasedAnyone } from '../privacy/erased-list';
import { PRIVACY_MESSAGES } from '../../shared/contracts/privacy';

export const IMPORT_JOB_KIND = 'contact-import';

/** The import queue's message (src/queue-bodies.ts). */
export interface ImportJobMessage {
  kind: typeof IMPORT_JOB_KIND;
  orgId: number;
  importId: number;
}

export interface RunOptions {
  /** Rows per committed batch. */
  batchRows?: number;
  /** Bytes per R2 range read. */
  windowBytes?: number;
  /** After this long a run commits what it has, queues its continuation and returns. */
  sliceMs?: number;
  /** Called after each committed batch (tests use it to interrupt a run). */
  afterCommit?: (batchNumber: number) => void | Promise<void>;
  /** Filled with the R2 read counters (tests check the file was read in bounded pieces). */
  stats?: ReadStats;
  /** Filled with the largest buffer the parser held. */
  parser?: { maxBufferBytes: number };
}

export type RunOutcome = 'finished' | 'continued' | 'superseded' | 'nothing-to-do';

const DEFAULT_BATCH_ROWS = 1000;
const DEFAULT_SLICE_MS = 30_000;
const PROGRESS_EVERY_MS = 3_000;
/** File bytes per batch at most (JSON parameters are capped at 2 MB by D1). */
const BATCH_MAX_BYTES = 512 * 1024;
/** Bytes handed to the parser at once. */
const PARSE_PIECE_BYTES = 64 * 1024;
/** Retries of a batch that lost a race on an address another writer created meanwhile. */
const ADDRESS_RACE_RETRIES = 3;

type ImportRow = typeof imports.$inferSelect;

/** Runs (or resumes) one import until it finishes or its time slice ends. */
export async function runImport(env: Env, orgId: number, importId: number, options: RunOptions = {}): Promise<RunOutcome> {
  const db = createDb(env.DB);
  const scope = new TenantScope(db, imports, orgId);
  let record = await scope.findById(importId);
  if (!record || record.status === 'success' || record.status === 'fail') return 'nothing-to-do';
  if (record.status === 'new') {
    const [started] = await scope.update(and(eq(imports.id, importId), eq(imports.status, 'new'))!, {
      status: 'processing',
      updatedAt: new Date().toISOString(),
    });
    record = started ?? (await scope.findById(importId));
    if (record?.status !== 'processing') return 'nothing-to-do';
  }

  const size = await fileSize(env.FILES, record.fileKey);
  if (size === null) return finishImport(env, orgId, importId, 'fail', IMPORT_MESSAGES.fileMissing);

  const mapping = record.mapping as ImportMappingEntry[];
  const fieldIds = mapping.flatMap((entry) => (entry.target === 'field' ? [entry.field_id] : []));
  const fieldScope = new TenantScope(db, fieldsTable, orgId);
  const fieldRows = fieldIds.length
    ? await db
        .select({ id: fieldsTable.id, name: fieldsTable.name, type: fieldsTable.type })
        .from(fieldsTable)
        .where(fieldScope.where(fieldScope.idIn(fieldIds)))
    : [];
  const fieldMeta = new Map<number, FieldMeta>(fieldRows.map((f) => [f.id, { ...f, type: f.type as FieldType }]));
  const lost = fieldIds.filter((id) => !fieldMeta.has(id));
  if (lost.length) return finishImport(env, orgId, importId, 'fail', `A mapped field no longer exists (id ${lost.join(', ')})`);

  // The tags for every contact, as they stand now: one deleted since the import was started is left out.
  const wantedTags = (record.tagIds as number[] | null) ?? [];
  const tagScope = new TenantScope(db, tagsTable, orgId);
  const everyContactTags = wantedTags.length
    ? (
        await db
          .select({ id: tagsTable.id })
          .from(tagsTable)
          .where(tagScope.where(tagScope.idIn(wantedTags)))
      ).map((t) => t.id)
    : [];
  const job = new ImportJob(env, record, compileMapping(mapping, fieldMeta), size, options, everyContactTags);
  await job.options.load([...fieldMeta.values()]);
  return job.run();
}

/** One run of one import: the streaming loop, the batches and their commits. */
class ImportJob {
  private readonly d1: D1Database;
  private readonly orgId: number;
  private readonly tags: TagIds;
  readonly options: OptionIds;
  private readonly stats: ReadStats;
  private cursorBytes: number;
  private cursorRow: number;
  private columns: number | null = null;
  private firstSeen: boolean;
  private rejections: ImportRejection[];
  private batchNumber = 0;
  /** Whether the organisation has erased anyone (asked once: an erasure waits while an import runs, so it stays so). */
  private erasedAnyone: Promise<boolean> | null = null;
  private lastProgress = Date.now();
  private readonly started = Date.now();

  constructor(
    private readonly env: Env,
    private record: ImportRow,
    private readonly mapping: CompiledMapping,
    private readonly size: number,
    private readonly opts: RunOptions,
    /** Tags every contact of the import gets (the wizard's "tag every imported contact"). */
    private readonly everyContactTags: number[] = [],
  ) {
    this.d1 = env.DB;
    this.orgId = record.orgId;
    this.tags = new TagIds(this.d1, this.orgId);
    this.options = new OptionIds(this.d1, this.orgId);
    this.stats = opts.stats ?? newReadStats();
    this.cursorBytes = record.cursorBytes;
    this.cursorRow = record.cursorRow;
    this.firstSeen = record.cursorBytes > 0;
    this.rejections = (record.rejections as ImportRejection[] | null) ?? [];
  }

  async run(): Promise<RunOutcome> {
    // The file as the console read it (imports from before the choice existed: comma, UTF-8, the defaults).
    const format = { delimiter: this.record.delimiter as CsvDelimiter, encoding: this.record.encoding as CsvEncoding };
    if (this.firstSeen) this.columns = (await peekFile(this.env.FILES, this.record.fileKey, this.size, false, format)).columns;
    const scanner = new CsvScanner({ startOffset: this.cursorBytes, startRow: this.cursorRow, ...format });
    const batchRows = this.opts.batchRows ?? DEFAULT_BATCH_ROWS;
    const sliceMs = this.opts.sliceMs ?? DEFAULT_SLICE_MS;
    let pending: CsvRecord[] = [];
    let batchStart = this.cursorBytes;
    let inflight: Promise<boolean> | null = null;
    let stopped: 'slice' | 'superseded' | null = null;

    // Parsing the next batch overlaps the commit of the previous one; a batch is planned only after the
    // previous one committed, so it sees the contacts that one created.
    const submit = async (records: CsvRecord[]) => {
      if (inflight && !(await inflight)) stopped = 'superseded';
      inflight = null;
      if (stopped) return;
      if (this.batchNumber > 0 && Date.now() - this.started > sliceMs) {
        stopped = 'slice';
        return;
      }
      inflight = this.commitBatch(records);
      inflight.catch(() => undefined); // awaited later; avoid an unhandled rejection meanwhile
    };

    try {
      reading: for await (const chunk of readFileFrom(this.env.FILES, this.record.fileKey, this.cursorBytes, this.size, this.stats, this.opts.windowBytes)) {
        // R2 may deliver a whole window as one chunk: parse it in small pieces so only about a batch of
        // records (and the text they point into) is alive at a time.
        for (let at = 0; at < chunk.byteLength; at += PARSE_PIECE_BYTES) {
          for (const rec of scanner.push(chunk.subarray(at, at + PARSE_PIECE_BYTES))) {
            if (this.takeHeader(rec)) {
              batchStart = rec.end;
              continue;
            }
            pending.push(rec);
            // A batch travels as JSON parameters, which D1 caps at 2 MB each: wide rows make smaller batches.
            if (pending.length >= batchRows || rec.end - batchStart >= BATCH_MAX_BYTES) {
              const batch = pending;
              pending = [];
              batchStart = rec.end;
              await submit(batch);
              if (stopped) break reading;
            }
          }
        }
      }
      if (!stopped) {
        for (const rec of scanner.finish()) if (!this.takeHeader(rec)) pending.push(rec);
        if (pending.length) await submit(pending);
      }
      if (inflight && !(await inflight)) stopped = 'superseded';
    } catch (error) {
      if (error instanceof ImportFileMissing) return finishImport(this.env, this.orgId, this.record.id, 'fail', IMPORT_MESSAGES.fileMissing);
      throw error;
    } finally {
      if (this.opts.parser) this.opts.parser.maxBufferBytes = scanner.maxBufferBytes;
      console.log(
        JSON.stringify({
          level: 'info',
          import_id: this.record.id,
          run: stopped ?? 'to-end',
          batches: this.batchNumber,
          rows_to: this.cursorRow,
          ms: Date.now() - this.started,
          r2_reads: this.stats.reads,
          max_r2_chunk: this.stats.maxChunkBytes,
          max_parser_buffer: scanner.maxBufferBytes,
        }),
      );
    }

    if (stopped === 'superseded') return 'superseded';
    if (stopped === 'slice') {
      const message: ImportJobMessage = { kind: IMPORT_JOB_KIND, orgId: this.orgId, importId: this.record.id };
      await this.env.IMPORT_QUEUE.send(message);
      return 'continued';
    }
    const fresh = await new TenantScope(createDb(this.d1), imports, this.orgId).findById(this.record.id);
    const total = (fresh?.createdCount ?? 0) + (fresh?.updatedCount ?? 0) + (fresh?.rejectedCount ?? 0);
    if (total === 0) return finishImport(this.env, this.orgId, this.record.id, 'fail', IMPORT_MESSAGES.noRows);
    return finishImport(this.env, this.orgId, this.record.id, 'success', null);
  }

  /** The first record of the file sets the column count; it is skipped when it is the header. */
  private takeHeader(rec: CsvRecord): boolean {
    if (this.firstSeen) return false;
    this.firstSeen = true;
    this.columns = rec.error ? null : rec.fields.length;
    return this.record.skipFirstLine;
  }

  /** Plans and commits one batch with its cursor; false when another run of this import moved the cursor. */
  private async commitBatch(records: CsvRecord[]): Promise<boolean> {
    const rejections: ImportRejection[] = [];
    const valid = [];
    for (const rec of records) {
      const result = toRowChange(rec, this.mapping, this.columns);
      if (result.rejection) rejections.push(result.rejection);
      else valid.push(result.change);
    }
    const resolved = await this.resolve(await this.withoutErased(valid, rejections), rejections);
    const last = records[records.length - 1];

    for (let attempt = 0; ; attempt++) {
      const owners = await findAddressOwners(
        this.d1,
        this.orgId,
        resolved.flatMap((r) => r.change.addresses),
      );
      const plan = planBatch(resolved, owners);
      const all = [...rejections, ...plan.rejections].sort((a, b) => a.row - b.row);
      const room = IMPORT_MAX_REJECTIONS - this.rejections.length;
      const kept = room > 0 && all.length ? [...this.rejections, ...all.slice(0, room)] : null;
      const statements = batchStatements(this.d1, plan, {
        importId: this.record.id,
        orgId: this.orgId,
        expectedBytes: this.cursorBytes,
        bytes: last.end,
        row: last.row,
        created: plan.createdRows,
        updated: plan.updatedRows,
        rejected: all.length,
        rejections: kept ? JSON.stringify(kept) : null,
        now: new Date().toISOString(),
        // Those deleted since the import started are left out by the statement itself (batch-writer.ts).
        subscriptionIds: (this.record.subscriptionIds as number[] | null) ?? [],
      });
      try {
        await this.d1.batch(statements);
      } catch (error) {
        const current = await this.d1
          .prepare('SELECT cursor_bytes, status FROM imports WHERE id = ? AND org_id = ?')
          .bind(this.record.id, this.orgId)
          .first<{ cursor_bytes: number; status: string }>();
        if (current?.status !== 'processing' || current.cursor_bytes !== this.cursorBytes) return false;
        // Another writer created one of these addresses between the lookup and the commit: look again.
        if (/UNIQUE/i.test(String(error)) && attempt < ADDRESS_RACE_RETRIES) continue;
        throw error;
      }
      if (kept) this.rejections = kept;
      this.cursorBytes = last.end;
      this.cursorRow = last.row;
      this.record = {
        ...this.record,
        cursorBytes: last.end,
        cursorRow: last.row,
        createdCount: this.record.createdCount + plan.createdRows,
        updatedCount: this.record.updatedCount + plan.updatedRows,
        rejectedCount: this.record.rejectedCount + all.length,
      };
      break;
    }
    this.batchNumber++;
    if (Date.now() - this.lastProgress >= PROGRESS_EVERY_MS) {
      this.lastProgress = Date.now();
      await publishToOrg(this.env, this.orgId, { type: 'import.progress', import: summarizeImport(this.record) });
      // The contacts' events (D1's outbox) into the stream as the import goes (src/modules/event); the last at its end.
      await announceEvents(this.env, this.orgId);
    }
    await this.opts.afterCommit?.(this.batchNumber);
    return true;
  }

  /**
   * Rejects the rows naming an address erased at the person's request (one D1 query for the batch). The reason does
   * not repeat the address: the import's rejection list is kept, and the erasure left the address nowhere else.
   */
  private async withoutErased(changes: ResolvedRow['change'][], rejections: ImportRejection[]): Promise<ResolvedRow['change'][]> {
    // Most organisations never erased anyone: then no row needs its addresses hashed.
    this.erasedAnyone ??= hasErasedAnyone(createDb(this.d1), this.orgId);
    if (!(await this.erasedAnyone)) return changes;
    const erased = await erasedAmong(
      createDb(this.d1),
      this.env,
      this.orgId,
      changes.flatMap((change) => change.addresses),
    );
    if (erased.size === 0) return changes;
    return changes.filter((change) => {
      const refused = change.addresses.some((a) => erased.has(a.value));
      if (refused) rejections.push({ row: change.row, reason: PRIVACY_MESSAGES.erasedAddress });
      return !refused;
    });
  }

  /** Tag names and option values to ids (creating what is missing); rows that would overflow a field's options are rejected. */
  private async resolve(changes: ResolvedRow['change'][], rejections: ImportRejection[]): Promise<ResolvedRow[]> {
    const tagNames = new Set<string>();
    const wanted = new Map<number, string[]>();
    const planned = new Map<number, number>();
    const accepted: ResolvedRow['change'][] = [];
    for (const change of changes) {
      let overflow: string | null = null;
      const adds: [number, string][] = [];
      for (const [fieldId, value] of change.attributes) {
        if (value.kind !== 'options') continue;
        for (const option of value.values) {
          if (this.options.has(fieldId, option) || wanted.get(fieldId)?.includes(option) || adds.some(([f, v]) => f === fieldId && v === option)) continue;
          const count = this.options.count(fieldId) + (planned.get(fieldId) ?? 0) + adds.filter(([f]) => f === fieldId).length;
          if (count >= IMPORT_MAX_FIELD_OPTIONS) {
            const field = this.mapping.fields.find((f) => f.field.id === fieldId)?.field.name ?? String(fieldId);
            overflow = `'${field}' already has ${IMPORT_MAX_FIELD_OPTIONS} options; '${option}' was not added`;
            break;
          }
          adds.push([fieldId, option]);
        }
        if (overflow) break;
      }
      if (overflow) {
        rejections.push({ row: change.row, reason: overflow });
        continue;
      }
      for (const [fieldId, option] of adds) {
        const list = wanted.get(fieldId) ?? [];
        list.push(option);
        wanted.set(fieldId, list);
        planned.set(fieldId, (planned.get(fieldId) ?? 0) + 1);
      }
      for (const tag of change.tags) tagNames.add(tag);
      accepted.push(change);
    }
    await Promise.all([this.tags.ensure(tagNames), this.options.ensure(wanted)]);

    return accepted.map((change) => {
      const attributes = new Map<number, ResolvedAttribute>();
      for (const [fieldId, value] of change.attributes) {
        if (value.kind === 'text') attributes.set(fieldId, { text: value.value, number: null, optionIds: null });
        else if (value.kind === 'number') attributes.set(fieldId, { text: null, number: value.value, optionIds: null });
        else attributes.set(fieldId, { text: null, number: null, optionIds: value.values.map((v) => this.options.get(fieldId, v)!) });
      }
      return { change, attributes, tagIds: [...new Set([...change.tags.map((t) => this.tags.get(t)!), ...this.everyContactTags])] };
    });
  }
}

/**
 * Ends an import (status success or fail) once: only an unfinished import changes, and only that change
 * publishes 'import.finished' to the organisation's consoles.
 */
export async function finishImport(env: Env, orgId: number, importId: number, status: 'success' | 'fail', error: string | null): Promise<RunOutcome> {
  const db = createDb(env.DB);
  const scope = new TenantScope(db, imports, orgId);
  const now = new Date().toISOString();
  const [done] = await db
    .update(imports)
    .set({ status, error, finishedAt: now, updatedAt: now })
    .where(scope.where(eq(imports.id, importId), inArray(imports.status, ['new', 'processing'])))
    .returning();
  if (done) await publishToOrg(env, orgId, { type: 'import.finished', import: summarizeImport(done) });
  await announceEvents(env, orgId);
  return 'finished';
}
