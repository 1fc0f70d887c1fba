import type { Template } from '@shared/contracts/template';
import { TEMPLATE_VARIABLES } from '@shared/contracts/template';
import { MESSAGES } from '@shared/messages';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../../web/src/app/i18n';
import { InsertTargets, variableKey } from '../../../web/src/features/template/placeholders';
import {
  afterTemplateChange,
  isRichType,
  templateCreatePayload,
  templateFormValues,
  templateFormWidth,
  templateUpdatePayload,
  validateTemplate,
} from '../../../web/src/features/template/template-config';

// Template form rules (spec 4, 5, 9): the type is chosen on create and changing it clears body, subject and
// plain body; a subject belongs to html and email templates, a plain body to email templates only; the form is 600
// wide for text, 1600 else.

const filled = { type: 'email', name: 'Welcome', alias: 'welcome', note: 'n', subject: 'Hi {{ contact.name }}', body: '<p>Hello</p>', body_plain: 'Hello' };

describe('template type change while creating', () => {
  it.each([
    ['email', 'html'],
    ['email', 'text'],
    ['html', 'email'],
  ])('%s -> %s clears body, subject and plain body, keeps the rest', (from, to) => {
    const previous = { ...filled, type: from };
    expect(afterTemplateChange('type', { ...previous, type: to }, previous)).toEqual({ ...filled, type: to, subject: '', body: '', body_plain: '' });
  });

  it('keeps everything when the type stays or another field changes', () => {
    expect(afterTemplateChange('type', { ...filled }, { ...filled })).toEqual(filled);
    expect(afterTemplateChange('name', { ...filled, name: 'New' }, filled)).toEqual({ ...filled, name: 'New' });
  });
});

describe('template payloads', () => {
  it('sends a subject for html and email templates, a plain body for email templates only', () => {
    expect(templateCreatePayload(filled)).toEqual({
      type: 'email',
      name: 'Welcome',
      alias: 'welcome',
      note: 'n',
      subject: 'Hi {{ contact.name }}',
      body: '<p>Hello</p>',
      body_plain: 'Hello',
    });
    expect(templateCreatePayload({ ...filled, type: 'html' })).toEqual({
      type: 'html',
      name: 'Welcome',
      alias: 'welcome',
      note: 'n',
      subject: 'Hi {{ contact.name }}',
      body: '<p>Hello</p>',
      body_plain: null,
    });
    expect(templateCreatePayload({ ...filled, type: 'text' })).toMatchObject({ subject: null, body_plain: null });
  });

  it('keeps the body as written and empties optional texts to null', () => {
    const body = '  {% if contact.name %}Hi{% endif %}\n';
    expect(templateCreatePayload({ ...filled, type: 'text', alias: ' ', note: '', body })).toMatchObject({ alias: null, note: null, body });
  });

  it('never sends the type on update (it is fixed) and follows the saved type', () => {
    const item = { ...templateFormValues(null), id: 3, type: 'html' } as unknown as Template;
    const body = templateUpdatePayload({ ...filled }, item);
    expect(body).not.toHaveProperty('type');
    expect(body).toMatchObject({ subject: 'Hi {{ contact.name }}', body_plain: null });
  });

  it('checks type, name and body in the browser', () => {
    expect(validateTemplate({ type: 'html', name: ' ', body: '' })).toEqual({ name: [MESSAGES.required], body: [MESSAGES.required] });
    expect(validateTemplate({ type: 'sms', name: 'x', body: 'y' })).toEqual({ type: [MESSAGES.required] });
    expect(validateTemplate(filled)).toEqual({});
  });

  it('is 600 wide for text and 1600 for html and email; html and email use the rich-text editor', () => {
    expect([templateFormWidth('text'), templateFormWidth('html'), templateFormWidth('email')]).toEqual([600, 1600, 1600]);
    expect([isRichType('text'), isRichType('html'), isRichType('email')]).toEqual([false, true, true]);
  });
});

describe('placeholder help', () => {
  it('has a translated description for every documented variable in every language', () => {
    for (const code of ['en', 'ru', 'de', 'pt', 'fr', 'ro', 'zh', 'es'] as const) {
      const i18n = createI18n(code);
      for (const variable of TEMPLATE_VARIABLES) expect(i18n.exists(variableKey(variable.name)), `${code}: ${variable.name}`).toBe(true);
    }
    expect(createI18n('en').t(variableKey('contact.name'))).toBe("The contact's name");
  });

  it('inserts where the focus was: the example into text, HTML examples as HTML into the editor', () => {
    const targets = new InsertTargets();
    const body = { rich: true, insertText: vi.fn(), insertHtml: vi.fn() };
    const subject = { rich: false, insertText: vi.fn() };
    const unsubscribe = TEMPLATE_VARIABLES.find((v) => v.name === 'unsubscribe_url')!;
    const name = TEMPLATE_VARIABLES.find((v) => v.name === 'contact.name')!;

    targets.insert(name); // nothing focused, no body yet: nothing happens
    targets.fallback = body;
    targets.insert(name);
    expect(body.insertText).toHaveBeenLastCalledWith('{{ contact.name }}');
    targets.insert(unsubscribe);
    expect(body.insertHtml).toHaveBeenLastCalledWith('<a href="{{ unsubscribe_url }}">Unsubscribe</a>');

    targets.current = subject;
    targets.insert(unsubscribe);
    expect(subject.insertText).toHaveBeenLastCalledWith('{{ unsubscribe_url }}');
    expect(body.insertText).toHaveBeenCalledTimes(1);
  });
});
