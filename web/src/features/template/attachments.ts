import { ATTACHMENT_RULES } from '@shared/contracts/template';

// Browser-side checks of template attachments, the same rules the server applies on upload (spec 5 and 9):
// only the listed extensions, at most 15,000,000 bytes a file.

/** The `accept` attribute of the file input: the allowed extensions. */
export const ATTACHMENT_ACCEPT = ATTACHMENT_RULES.extensions.map((ext) => `.${ext}`).join(',');

/** The size limit in MB, as the messages show it (15). */
export const ATTACHMENT_MAX_MB = ATTACHMENT_RULES.maxBytes / 1_000_000;

/** A refused file, as a locale key with its values (channels.messages.*). */
export type AttachmentProblem =
  | { key: 'channels.messages.unsupportedFile'; values: { filename: string } }
  | { key: 'channels.messages.tooLargeOne' | 'channels.messages.tooLargeMany'; values: { names: string; size: number } };

/** The lower-case extension of a file name ('' when it has none). */
export function extensionOf(name: string): string {
  return (/\.([^./\\]+)$/.exec(name)?.[1] ?? '').toLowerCase();
}

/**
 * Splits chosen files into the acceptable ones and the problems: one message per file of an unsupported type,
 * and one message for all files that are too large (singular for one file, plural for several).
 */
export function checkAttachments<F extends { name: string; size: number }>(files: F[]): { accepted: F[]; problems: AttachmentProblem[] } {
  const accepted: F[] = [];
  const problems: AttachmentProblem[] = [];
  const tooLarge: string[] = [];
  for (const file of files) {
    if (!(ATTACHMENT_RULES.extensions as readonly string[]).includes(extensionOf(file.name))) {
      problems.push({ key: 'channels.messages.unsupportedFile', values: { filename: file.name } });
    } else if (file.size > ATTACHMENT_RULES.maxBytes) {
      tooLarge.push(file.name);
    } else {
      accepted.push(file);
    }
  }
  if (tooLarge.length) {
    problems.push({
      key: tooLarge.length === 1 ? 'channels.messages.tooLargeOne' : 'channels.messages.tooLargeMany',
      values: { names: tooLarge.join(', '), size: ATTACHMENT_MAX_MB },
    });
  }
  return { accepted, problems };
}

/** A file size for people: bytes, KB or MB (decimal, as the limit is). */
export function formatBytes(size: number, language = 'en'): string {
  const format = (value: number, unit: string) => `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value)} ${unit}`;
  if (size < 1_000) return format(size, 'B');
  if (size < 1_000_000) return format(size / 1_000, 'KB');
  return format(size / 1_000_000, 'MB');
}
