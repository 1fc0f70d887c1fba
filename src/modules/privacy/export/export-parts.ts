// The export's document model: an ordered list of sections, each either a value read before the answer starts (the
// small D1 records) or a list read page by page while it is written (messages, archived messages, the activity
// log). The JSON and html writers take the same list, so both formats hold the same content.

/** A section whose whole value is small enough to read at once. */
export interface ValuePart {
  key: string;
  title: string;
  value: unknown;
}

/** A section written item by item as its pages arrive: never held whole. */
export interface ListPart {
  key: string;
  title: string;
  items: () => AsyncIterable<unknown>;
}

export type ExportPart = ValuePart | ListPart;

export const isListPart = (part: ExportPart): part is ListPart => 'items' in part;
