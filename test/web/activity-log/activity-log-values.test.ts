import { describe, expect, it } from 'vitest';
import { previewValue } from '../../../web/src/features/activity-log/activity-log-config';
import { readableValue } from '../../../web/src/features/activity-log/readable-value';

describe('activity log values as a person reads them', () => {
  it('shows lists and objects the log stored as JSON without braces or quotes', () => {
    expect(readableValue('["vip","news"]')).toBe('vip, news');
    expect(readableValue('{"server":"smtp.example.com","port":587,"user":null,"ssl":false}')).toBe('server: smtp.example.com; port: 587; ssl: false');
    expect(readableValue('[{"type":"email","value":"ada@example.com"},{"type":"phone","value":"+15550001"}]')).toBe(
      '(type: email; value: ada@example.com), (type: phone; value: +15550001)',
    );
  });

  it('keeps plain text, numbers and text that only looks like JSON as stored', () => {
    expect(readableValue('Ada')).toBe('Ada');
    expect(readableValue('42')).toBe('42');
    expect(readableValue('{not json')).toBe('{not json');
    expect(readableValue(null)).toBe('');
  });

  it('cuts a long readable value for the cell', () => {
    const long = JSON.stringify(Array.from({ length: 40 }, (_, i) => `tag${i}`));
    const preview = previewValue(long);
    expect(preview.startsWith('tag0, tag1, ')).toBe(true);
    expect(preview.length).toBe(80);
    expect(preview.endsWith('…')).toBe(true);
  });
});
