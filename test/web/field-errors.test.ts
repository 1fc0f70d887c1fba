import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { clearAllFieldErrors, clearFieldError, fieldErrorsAtom, setFieldErrors } from '../../web/src/lib/field-errors';

describe('422 field-message store', () => {
  it('keeps messages per request key and field', () => {
    const store = createStore();
    setFieldErrors(store, 'POST /api/v1/tag', { name: ['This field is required'] });
    setFieldErrors(store, 'PUT /api/v1/tag/3', { name: ['Value already exists, use a different one.'], note: ['x'] });
    expect(store.get(fieldErrorsAtom)).toEqual({
      'POST /api/v1/tag': { name: ['This field is required'] },
      'PUT /api/v1/tag/3': { name: ['Value already exists, use a different one.'], note: ['x'] },
    });
  });

  it('replaces a request key’s messages on a new 422', () => {
    const store = createStore();
    setFieldErrors(store, 'POST /api/v1/tag', { name: ['a'], note: ['b'] });
    setFieldErrors(store, 'POST /api/v1/tag', { name: ['c'] });
    expect(store.get(fieldErrorsAtom)['POST /api/v1/tag']).toEqual({ name: ['c'] });
  });

  it('clears one field when it is edited, leaving the others', () => {
    const store = createStore();
    setFieldErrors(store, 'PUT /api/v1/tag/3', { name: ['x'], note: ['y'] });
    setFieldErrors(store, 'POST /api/v1/tag', { name: ['z'] });
    clearFieldError(store, 'PUT /api/v1/tag/3', 'name');
    expect(store.get(fieldErrorsAtom)).toEqual({ 'PUT /api/v1/tag/3': { note: ['y'] }, 'POST /api/v1/tag': { name: ['z'] } });
  });

  it('clears everything (after a successful user request)', () => {
    const store = createStore();
    setFieldErrors(store, 'POST /api/v1/tag', { name: ['z'] });
    clearAllFieldErrors(store);
    expect(store.get(fieldErrorsAtom)).toEqual({});
  });
});
