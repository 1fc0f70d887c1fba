import { TEMPLATE_MESSAGES } from '@shared/contracts/template';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../web/src/app/i18n';
import { LOCALES } from '../all-locales';
import { ATTACHMENT_ACCEPT, checkAttachments, extensionOf, formatBytes } from '../../../web/src/features/template/attachments';
import { translateServerMessage } from '../../../web/src/lib/server-messages';

// Template attachments are checked in the browser before upload with the server's rules (spec 5 and 9): only
// the listed types, at most 15,000,000 bytes each, with the spec's messages (singular and plural), translated.

const file = (name: string, size = 10) => ({ name, size });

describe('attachment checks in the browser', () => {
  it('accepts every allowed extension, in any letter case', () => {
    const names = [
      'a.pdf',
      'b.DOC',
      'c.docx',
      'd.xls',
      'e.xlsx',
      'f.ppt',
      'g.pptx',
      'h.txt',
      'i.csv',
      'j.JPG',
      'k.jpeg',
      'l.png',
      'm.gif',
      'n.bmp',
      'o.svg',
      'p.zip',
      'q.rar',
      'r.7z',
      's.json',
      't.xml',
    ];
    const { accepted, problems } = checkAttachments(names.map((n) => file(n)));
    expect(accepted.map((f) => f.name)).toEqual(names);
    expect(problems).toEqual([]);
  });

  it('refuses other types one message per file, and keeps the good files', () => {
    const { accepted, problems } = checkAttachments([file('ok.pdf'), file('run.exe'), file('noext'), file('archive.tar.gz')]);
    expect(accepted.map((f) => f.name)).toEqual(['ok.pdf']);
    expect(problems).toEqual([
      { key: 'channels.messages.unsupportedFile', values: { filename: 'run.exe' } },
      { key: 'channels.messages.unsupportedFile', values: { filename: 'noext' } },
      { key: 'channels.messages.unsupportedFile', values: { filename: 'archive.tar.gz' } },
    ]);
  });

  it('allows exactly 15,000,000 bytes and refuses one byte more (singular message)', () => {
    const { accepted, problems } = checkAttachments([file('edge.pdf', 15_000_000), file('big.pdf', 15_000_001)]);
    expect(accepted.map((f) => f.name)).toEqual(['edge.pdf']);
    expect(problems).toEqual([{ key: 'channels.messages.tooLargeOne', values: { names: 'big.pdf', size: 15 } }]);
  });

  it('names all too large files in one plural message', () => {
    const { problems } = checkAttachments([file('a.zip', 20_000_000), file('b.zip', 16_000_000)]);
    expect(problems).toEqual([{ key: 'channels.messages.tooLargeMany', values: { names: 'a.zip, b.zip', size: 15 } }]);
  });

  it('says it in the spec words, and in other languages', () => {
    const en = createI18n('en');
    const de = createI18n('de', LOCALES);
    const [unsupported] = checkAttachments([file('run.exe')]).problems;
    const [one] = checkAttachments([file('big.pdf', 15_000_001)]).problems;
    const [many] = checkAttachments([file('a.zip', 15_000_001), file('b.zip', 15_000_001)]).problems;
    expect(en.t(unsupported.key, unsupported.values)).toBe('File run.exe has an unsupported type');
    expect(en.t(one.key, one.values)).toBe('File big.pdf is larger than 15 MB');
    expect(en.t(many.key, many.values)).toBe('Files a.zip, b.zip are larger than 15 MB');
    expect(de.t(unsupported.key, unsupported.values)).toBe('Die Datei run.exe hat einen nicht unterstützten Typ');
    expect(de.t(many.key, many.values)).toBe('Die Dateien a.zip, b.zip sind größer als 15 MB');
  });

  it("shows the server's upload messages in the same words as the browser check", () => {
    const de = createI18n('de', LOCALES);
    const t = de.t.bind(de) as (key: string, options?: Record<string, unknown>) => string;
    expect(translateServerMessage(t, TEMPLATE_MESSAGES.unsupportedFile('run.exe'))).toBe('Die Datei run.exe hat einen nicht unterstützten Typ');
    expect(translateServerMessage(t, TEMPLATE_MESSAGES.tooLarge(['big.pdf']))).toBe('Die Datei big.pdf ist größer als 15 MB');
    expect(translateServerMessage(t, TEMPLATE_MESSAGES.tooLarge(['a.zip', 'b.zip']))).toBe('Die Dateien a.zip, b.zip sind größer als 15 MB');
  });

  it('offers the allowed types to the file chooser and shows sizes for people', () => {
    expect(ATTACHMENT_ACCEPT.split(',')).toContain('.7z');
    expect(ATTACHMENT_ACCEPT.split(',')).toHaveLength(20);
    expect(extensionOf('Report.Final.PDF')).toBe('pdf');
    expect(extensionOf('folder.d/noext')).toBe('');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1_500)).toBe('1.5 KB');
    expect(formatBytes(15_000_000)).toBe('15 MB');
  });
});
