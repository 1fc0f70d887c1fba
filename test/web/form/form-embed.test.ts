import { describe, expect, it } from 'vitest';
import { FORM_POST_FIELDS } from '../../../src/shared/contracts/form';
import { type EmbedForm, formEmbedHtml } from '../../../src/shared/form-embed';

// The embed snippet (src/shared/form-embed.ts): the names the hosted page reads, every value escaped.

const LABELS = { email: 'Email', name: 'Name', phone: 'Phone', subscriptions: 'Pick', submit: 'Subscribe', honeypot: 'Leave empty' };
const base: EmbedForm = {
  url: 'https://acme.example.com/f/AbC123',
  fields: [
    { kind: 'email', required: true },
    { kind: 'name', required: false },
    { kind: 'phone', required: true },
    { kind: 'custom', alias: 'city', required: false },
  ],
  subscriptions: [{ id: 7, name: 'News' }],
  customNames: { city: 'City' },
  language: 'de',
  labels: LABELS,
};

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html').querySelector('form')!;

describe('form embed snippet', () => {
  it('posts to the hosted url with the hosted page field names; one subscription is hidden', () => {
    const form = parse(formEmbedHtml(base));
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe(base.url);
    const names = [...form.querySelectorAll('input')].map((i) => [i.name, i.type, i.required]);
    expect(names).toEqual([
      [FORM_POST_FIELDS.email, 'email', true],
      [FORM_POST_FIELDS.name, 'text', false],
      [FORM_POST_FIELDS.phone, 'tel', true],
      ['field.city', 'text', false],
      [FORM_POST_FIELDS.subscription, 'hidden', false],
      [FORM_POST_FIELDS.language, 'hidden', false],
      [FORM_POST_FIELDS.honeypot, 'text', false],
    ]);
    expect((form.querySelector(`input[name="${FORM_POST_FIELDS.subscription}"]`) as HTMLInputElement).value).toBe('7');
    expect(form.querySelector('script, style')).toBeNull();
    expect(form.querySelector('button[type="submit"]')!.textContent).toBe('Subscribe');
  });

  it('offers several subscriptions as checkboxes and escapes every value', () => {
    const evil = '"><script>alert(1)</script>';
    const html = formEmbedHtml({
      ...base,
      url: `https://acme.example.com/f/x${evil}`,
      subscriptions: [
        { id: 1, name: `A ${evil}` },
        { id: 2, name: 'B & C' },
      ],
      customNames: { city: evil },
      labels: { ...LABELS, submit: evil },
    });
    expect(html).not.toContain('<script>');
    const form = parse(html);
    expect(form.querySelector('script')).toBeNull();
    expect(form.getAttribute('action')).toBe(`https://acme.example.com/f/x${evil}`);
    const boxes = [...form.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="${FORM_POST_FIELDS.subscription}"]`)];
    expect(boxes.map((b) => b.value)).toEqual(['1', '2']);
    expect(form.textContent).toContain(`A ${evil}`);
    expect(form.textContent).toContain('B & C');
    expect(form.querySelector('button')!.textContent).toBe(evil);
  });
});
