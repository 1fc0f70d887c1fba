// DMARC identifier alignment (src/lib/dns/alignment.ts): relaxed is the same Organizational Domain by the Public
// Suffix List, strict the same name.
import { describe, expect, it } from 'vitest';
import { domainsAlign, organizationalDomain } from '../../../src/lib/dns/alignment';

describe('organizationalDomain', () => {
  it('is the public suffix plus one label, by the Public Suffix List', () => {
    expect(organizationalDomain('example.co.uk')).toBe('example.co.uk');
    expect(organizationalDomain('mail.example.co.uk')).toBe('example.co.uk');
    expect(organizationalDomain('a.b.example.com')).toBe('example.com');
    expect(organizationalDomain('Bounce.Example.COM.')).toBe('example.com');
    expect(organizationalDomain('news.example.com.au')).toBe('example.com.au');
    // The private section: each name under github.io is its own organisation.
    expect(organizationalDomain('docs.alice.github.io')).toBe('alice.github.io');
  });

  it('is the name itself for a public suffix', () => {
    expect(organizationalDomain('co.uk')).toBe('co.uk');
    expect(organizationalDomain('github.io')).toBe('github.io');
  });
});

describe('domainsAlign', () => {
  const cases: [string, string, boolean, boolean][] = [
    // [a, b, relaxed, strict]
    ['example.co.uk', 'example.co.uk', true, true],
    ['mail.example.co.uk', 'example.co.uk', true, false],
    ['a.b.example.com', 'example.com', true, false],
    ['bounce.example.com', 'news.example.com', true, false],
    ['example.com', 'example.net', false, false],
    // Sharing a public suffix is not sharing an organisation.
    ['example.co.uk', 'other.co.uk', false, false],
    ['mail.co.uk', 'co.uk', false, false],
    ['alice.github.io', 'bob.github.io', false, false],
    ['example.com', 'example.com.evil.test', false, false],
    ['EXAMPLE.com.', 'example.COM', true, true],
  ];
  it.each(cases)('%s and %s: relaxed %s, strict %s', (a, b, relaxed, strict) => {
    expect(domainsAlign(a, b)).toBe(relaxed);
    expect(domainsAlign(a, b, 'relaxed')).toBe(relaxed);
    expect(domainsAlign(a, b, 'strict')).toBe(strict);
    expect(domainsAlign(b, a, 'relaxed')).toBe(relaxed);
  });

  it('never aligns an empty name', () => {
    expect(domainsAlign('', '')).toBe(false);
    expect(domainsAlign('.', 'example.com')).toBe(false);
  });
});
