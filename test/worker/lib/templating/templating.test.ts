import { describe, expect, it } from 'vitest';
import { parseLiquid, renderLiquid, RENDER_LIMITS } from '../../../../src/lib/templating/liquid';
import type { PlaceholderScope } from '../../../../src/lib/templating/placeholders';
import { renderTemplate, templateSyntaxErrors, TemplateRenderError } from '../../../../src/lib/templating/render-template';

const scope: PlaceholderScope = {
  contact: {
    id: 1,
    name: 'Ann <Lee>',
    note: null,
    email: 'ann@example.com',
    phone: '+15550001',
    addresses: [
      { type: 'email', value: 'ann@example.com' },
      { type: 'phone', value: '+15550001' },
    ],
    fields: { city: 'Oslo', age: 41, vip: true, plan: 'gold', interests: ['golf', 'chess'] },
  },
  organization: { name: 'Acme Inc', domain: 'acme' },
  unsubscribe_url: 'https://acme.example.com/unsubscribe?m=abc',
};

const render = (text: string) => renderLiquid(parseLiquid(text), scope, 100_000);

describe('Liquid placeholders in the Workers runtime', () => {
  it('renders contact, fields by alias, organisation and the unsubscribe link', () => {
    expect(render('Hi {{ contact.name }} from {{ organization.name }} ({{ organization.domain }})')).toBe('Hi Ann <Lee> from Acme Inc (acme)');
    expect(render('{{ contact.fields.city }} {{ contact.fields.age | plus: 1 }} {% if contact.fields.vip %}VIP{% endif %}')).toBe('Oslo 42 VIP');
    expect(render("{{ contact.fields.plan }}: {{ contact.fields.interests | join: ', ' }}")).toBe('gold: golf, chess');
    expect(render('{% for a in contact.addresses %}[{{ a.type }}={{ a.value }}]{% endfor %}')).toBe('[email=ann@example.com][phone=+15550001]');
    expect(render('{{ contact.email }} {{ contact.phone }}')).toBe('ann@example.com +15550001');
    expect(render('<a href="{{ unsubscribe_url }}">x</a>')).toBe('<a href="https://acme.example.com/unsubscribe?m=abc">x</a>');
    expect(render('{{ contact.name | escape }}')).toBe('Ann &lt;Lee&gt;');
  });

  it('renders missing variables as nothing but reports unknown filters', () => {
    expect(render('[{{ contact.fields.nope }}][{{ nothing.at.all }}]')).toBe('[][]');
    expect(() => render('{{ contact.name | shout }}')).toThrow(/undefined filter: shout/);
  });

  it('stops a template that loops too long instead of running forever', () => {
    const start = Date.now();
    expect(() => render('{% for a in (1..1000) %}{% for b in (1..1000) %}{% for c in (1..1000) %}{% endfor %}{% endfor %}{% endfor %}')).toThrow(
      new RegExp(`more than ${RENDER_LIMITS.steps} steps`),
    );
    expect(() => render('{% for a in (1..100000000) %}x{% endfor %}')).toThrow(/limit exceeded/);
    expect(Date.now() - start).toBeLessThan(5_000);
  });

  it('stops output that grows past the size limit and filters that allocate too much', () => {
    expect(() => renderLiquid(parseLiquid('{% for i in (1..5000) %}0123456789{% endfor %}'), scope, 10_000)).toThrow(/larger than 10000 bytes/);
    expect(() => render('{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}')).toThrow(
      /limit exceeded/,
    );
  });

  it('names the part that failed', () => {
    const base = {
      type: 'email' as const,
      subject: 'Hi {{ contact.name }}',
      body: '<p>{{ contact.fields.city }}</p>',
      bodyPlain: 'City: {{ contact.fields.city }}',
    };
    expect(renderTemplate(base, scope)).toEqual({ subject: 'Hi Ann <Lee>', body: '<p>Oslo</p>', body_plain: 'City: Oslo' });
    const subjectError = (() => {
      try {
        renderTemplate({ ...base, subject: '{{ contact.name | nope }}' }, scope);
      } catch (e) {
        return e as TemplateRenderError;
      }
    })();
    expect(subjectError).toBeInstanceOf(TemplateRenderError);
    expect(subjectError!.field).toBe('subject');
    expect(subjectError!.message).toMatch(/^subject generation failed: undefined filter: nope/);
    expect(() => renderTemplate({ ...base, body: '{% include "missing" %}' }, scope)).toThrow(/^body generation failed: .*missing/);
    // An html template has its subject; the plain body belongs to email templates only; a text template has neither.
    expect(renderTemplate({ ...base, type: 'html' }, scope)).toEqual({ subject: 'Hi Ann <Lee>', body: '<p>Oslo</p>', body_plain: null });
    expect(renderTemplate({ ...base, type: 'text' }, scope)).toEqual({ subject: null, body: '<p>Oslo</p>', body_plain: null });
  });

  it('finds syntax errors per field, for the save check', () => {
    expect(templateSyntaxErrors({ subject: 'ok {{ a }}', body: '{% if x %}open', body_plain: '{{ a' })).toEqual({
      body: [expect.stringMatching(/^Template syntax error: .*if/)],
      body_plain: [expect.stringMatching(/^Template syntax error: /)],
    });
    expect(templateSyntaxErrors({ body: '{% include "x" %}' })).toEqual({});
  });
});
