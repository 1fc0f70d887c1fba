import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { MESSAGES } from '@shared/messages';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../render-app';
import { fakeAccountApi } from './fake-account-api';
import { asApi, find, valueOf } from './shared';

describe('my profile', () => {
  it('starts with the current name and login', async () => {
    renderApp(asApi(fakeAccountApi()), { path: '/me/profile', signedIn: true });
    await find('profile-form');
    expect(valueOf('profile-name')).toBe('Ann Admin');
    // Simple-sign mode: the login is the username.
    expect(valueOf('profile-login')).toBe('ann');
    expect(screen.getByTestId('profile-form-submit').hasAttribute('disabled')).toBe(false);
  });

  it('shows required messages in the browser and sends nothing', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/profile', signedIn: true });
    fireEvent.change(await find('profile-name'), { target: { value: '   ' } });
    fireEvent.change(screen.getByTestId('profile-login'), { target: { value: '' } });
    await act(async () => fireEvent.click(screen.getByTestId('profile-form-submit')));
    expect(await find('profile-form-error')).toBeTruthy();
    expect(screen.getByTestId('profile-form-error').textContent).toContain(MESSAGES.invalidForm);
    const form = screen.getByTestId('profile-form');
    expect(form.textContent?.split(MESSAGES.required).length).toBe(3);
    expect(api.sent('PUT', '/internal-user/5')).toHaveLength(0);

    // Editing a field clears its message only.
    fireEvent.change(screen.getByTestId('profile-name'), { target: { value: 'Ann' } });
    await waitFor(() => expect(form.textContent?.split(MESSAGES.required).length).toBe(2));
  });

  it('saves name and username, and refreshes the signed-in user in the header', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/profile', signedIn: true });
    fireEvent.change(await find('profile-name'), { target: { value: 'Ann Boss' } });
    fireEvent.change(screen.getByTestId('profile-login'), { target: { value: 'annie' } });
    await act(async () => fireEvent.click(screen.getByTestId('profile-form-submit')));
    await waitFor(() => expect(api.sent('PUT', '/internal-user/5')).toHaveLength(1));
    expect(api.sent('PUT', '/internal-user/5')[0].body).toEqual({ name: 'Ann Boss', username: 'annie' });
    await waitFor(() => expect(screen.getByTestId('account-menu').textContent).toContain('Ann Boss'));
    expect(screen.queryByTestId('profile-form-error')).toBeNull();
  });

  it('sends a login that looks like an email as email', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/profile', signedIn: true });
    fireEvent.change(await find('profile-login'), { target: { value: 'ann@new.test' } });
    await act(async () => fireEvent.click(screen.getByTestId('profile-form-submit')));
    await waitFor(() => expect(api.sent('PUT', '/internal-user/5')).toHaveLength(1));
    expect(api.sent('PUT', '/internal-user/5')[0].body).toEqual({ name: 'Ann Admin', email: 'ann@new.test' });
  });

  it('shows the server duplicate message on the login field', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/profile', signedIn: true });
    fireEvent.change(await find('profile-login'), { target: { value: 'bob' } });
    await act(async () => fireEvent.click(screen.getByTestId('profile-form-submit')));
    await waitFor(() => expect(screen.getByTestId('profile-form').textContent).toContain(MESSAGES.duplicate));
    expect(screen.getByTestId('profile-form-error').textContent).toContain(MESSAGES.invalidForm);
    // The header still shows the unchanged user.
    expect(screen.getByTestId('account-menu').textContent).toContain('Ann Admin');
  });
});

describe('my organisation', () => {
  it('saves the name, shows the domain read-only', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/organization', signedIn: true });
    fireEvent.change(await find('organization-name'), { target: { value: 'Acme Ltd' } });
    expect(valueOf('organization-domain')).toBe('acme');
    expect((screen.getByTestId('organization-domain') as HTMLInputElement).readOnly).toBe(true);
    await act(async () => fireEvent.click(screen.getByTestId('organization-form-submit')));
    await waitFor(() => expect(api.state.organization.name).toBe('Acme Ltd'));
    expect(api.sent('PUT', '/organization')[0].body).toEqual({ name: 'Acme Ltd' });
    await waitFor(() => expect(screen.getByTestId('org-name').textContent).toBe('Acme Ltd'));
  });

  it('requires a name', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/organization', signedIn: true });
    fireEvent.change(await find('organization-name'), { target: { value: '' } });
    await act(async () => fireEvent.click(screen.getByTestId('organization-form-submit')));
    await waitFor(() => expect(screen.getByTestId('organization-form').textContent).toContain(MESSAGES.required));
    expect(api.sent('PUT', '/organization')).toHaveLength(0);
  });
});
