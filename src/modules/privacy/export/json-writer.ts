import { isListPart, type ExportPart } from './export-parts';

/**
 * The export as one JSON object, a piece at a time: each section under its key, a list section's items written one
 * per line as they arrive (never gathered into one array first).
 */
export async function* jsonDocument(parts: ExportPart[]): AsyncGenerator<string> {
  yield '{';
  for (const [index, part] of parts.entries()) {
    yield `${index ? ',' : ''}\n${JSON.stringify(part.key)}: `;
    if (!isListPart(part)) {
      yield JSON.stringify(part.value ?? null);
      continue;
    }
    yield '[';
    let first = true;
    for await (const item of part.items()) {
      yield `${first ? '' : ','}\n${JSON.stringify(item)}`;
      first = false;
    }
    yield first ? ']' : '\n]';
  }
  yield '\n}\n';
}
