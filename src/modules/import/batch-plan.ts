// Which contacts a batch of rows creates and which it updates.
//
// THE MATCHING RULE (also in README.md, "Contact import rules"): a row belongs to the contact that already
// has one of its addresses (same type and normalised value) in the organisation, or that an earlier row of
// the same file created with one of them. Such a row updates that contact instead of creating a duplicate:
// non-empty name and note replace the old ones, each non-empty field value replaces that field's value,
// tags and new addresses are added (nothing is removed). A row whose addresses belong to two different
// contacts is rejected, since addresses never move between contacts. Otherwise the row creates a contact;
// without a name it is named after its first address.
import type { AddressType } from '../../shared/address';
import type { ImportRejection } from '../../shared/contracts/import';
import type { RowChange } from './row-rules';

export interface ResolvedAttribute {
  text: string | null;
  number: number | null;
  /** Option ids (one for select, any for multiselect). */
  optionIds: number[] | null;
}

/** A row with its tag names and option values turned into ids. */
export interface ResolvedRow {
  change: RowChange;
  attributes: Map<number, ResolvedAttribute>;
  tagIds: number[];
}

export interface PlannedContact {
  /** The contact's id when it exists already, else null. */
  existingId: number | null;
  /** Position among the batch's new contacts (their ids are consecutive), -1 for existing ones. */
  newIndex: number;
  name: string | null;
  note: string | null;
  /** Addresses to add. */
  addresses: { type: AddressType; value: string }[];
  attributes: Map<number, ResolvedAttribute>;
  tagIds: Set<number>;
}

export interface BatchPlan {
  created: PlannedContact[];
  updated: PlannedContact[];
  createdRows: number;
  updatedRows: number;
  rejections: ImportRejection[];
}

/** Key of an address in lookups. */
export const addressKey = (type: string, value: string) => `${type}\u0000${value}`;

/** Applies the matching rule to the batch's rows, in file order; `existing` maps address keys to contact ids. */
export function planBatch(rows: ResolvedRow[], existing: Map<string, number>): BatchPlan {
  const plan: BatchPlan = { created: [], updated: [], createdRows: 0, updatedRows: 0, rejections: [] };
  const byExistingId = new Map<number, PlannedContact>();
  /** Addresses of contacts this batch creates. */
  const claimed = new Map<string, PlannedContact>();

  for (const row of rows) {
    const { change } = row;
    let target: PlannedContact | null = null;
    let targetVia = '';
    let conflict: string | null = null;
    for (const address of change.addresses) {
      const key = addressKey(address.type, address.value);
      const existingId = existing.get(key);
      let owner: PlannedContact | undefined;
      if (existingId !== undefined) {
        owner = byExistingId.get(existingId);
        // A contact the batch has not touched yet: registered below only if the row is accepted.
        owner ??= { existingId, newIndex: -1, name: null, note: null, addresses: [], attributes: new Map(), tagIds: new Set() };
      } else {
        owner = claimed.get(key);
      }
      if (!owner) continue;
      if (target && !sameContact(target, owner)) {
        conflict = `${targetVia} and ${address.value}`;
        break;
      }
      if (!target) {
        target = owner;
        targetVia = address.value;
      }
    }
    if (conflict) {
      plan.rejections.push({ row: change.row, reason: `The row's addresses belong to different contacts (${conflict})` });
      continue;
    }

    if (!target) {
      target = { existingId: null, newIndex: plan.created.length, name: null, note: null, addresses: [], attributes: new Map(), tagIds: new Set() };
      plan.created.push(target);
      plan.createdRows++;
    } else {
      if (target.existingId !== null && !byExistingId.has(target.existingId)) {
        byExistingId.set(target.existingId, target);
        plan.updated.push(target);
      }
      plan.updatedRows++;
    }

    if (change.name !== null) target.name = change.name;
    if (change.note !== null) target.note = change.note;
    for (const [fieldId, value] of row.attributes) target.attributes.set(fieldId, value);
    for (const tagId of row.tagIds) target.tagIds.add(tagId);
    for (const address of change.addresses) {
      const key = addressKey(address.type, address.value);
      if (existing.has(key) || claimed.has(key)) continue;
      claimed.set(key, target);
      target.addresses.push(address);
    }
  }

  for (const contact of plan.created) contact.name ??= contact.addresses[0]?.value ?? '';
  return plan;
}

function sameContact(a: PlannedContact, b: PlannedContact): boolean {
  if (a === b) return true;
  return a.existingId !== null && a.existingId === b.existingId;
}
