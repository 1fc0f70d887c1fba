import { MESSAGES } from '@shared/messages';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { identityApi, ORG } from '../identity-api';
import { renderIdentity } from '../render-identity';

const byTestId = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });
const type = async (id: string, value: string) => fireEvent.change(await byTestId(id), { target: { value } });
let assign: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
});
afterEach(() => {
  assign.mockRestore();
});

describe('platform mode', () => {
  it('shows the platform landing without an organisation, with Become a client leading to /signup', async () => {
    renderIdentity(identityApi({ organization: null }));
    expect((await byTestId('platform-home')).textContent).toContain('Email and SMS messaging for organisations');
    expect(screen.queryByTestId('signin-card')).toBeNull();
    expect((await byTestId('platform-become-client')).getAttribute('href')).toBe('/signup');
  });

  it('leads to the pre-registration form when registration is paused, and hides joining when sign-up is off', async () => {
    const paused = renderIdentity(identityApi({ organization: null, signupActive: false }));
    expect((await byTestId('platform-become-client')).getAttribute('href')).toBe('/pre-registration');
    expect((await byTestId('platform-join')).textContent).toContain(MESSAGES.registrationPaused);
    paused.unmount();
    renderIdentity(identityApi({ organization: null, signupEnabled: false }));
    await byTestId('platform-home');
    expect(screen.queryByTestId('platform-become-client')).toBeNull();
  });

  it('goes to the organisation host typed in, and rejects a malformed label', async () => {
    renderIdentity(identityApi({ organization: null }));
    await type('platform-org-domain', 'Bad_Label');
    fireEvent.click(await byTestId('platform-org-go'));
    expect(await screen.findByText(MESSAGES.orgDomainInvalid)).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    await type('platform-org-domain', 'acme');
    fireEvent.click(await byTestId('platform-org-go'));
    expect(assign).toHaveBeenCalledWith(`${window.location.protocol}//acme.${window.location.host}`);
  });

  it('offers no organisation routes on the platform host and no platform routes on an organisation host', async () => {
    const platform = renderIdentity(identityApi({ organization: null }), '/password-reset?code=x');
    await byTestId('not-found');
    platform.unmount();
    const platformTag = renderIdentity(identityApi({ organization: null }), '/tag');
    await byTestId('not-found');
    platformTag.unmount();
    const org = renderIdentity(identityApi({ organization: ORG }), '/signup');
    await byTestId('not-found');
    expect(screen.queryByTestId('signup')).toBeNull();
    org.unmount();
    renderIdentity(identityApi({ organization: ORG }), '/');
    await byTestId('signin-card');
    expect(screen.queryByTestId('platform-home')).toBeNull();
  });
});

/** Fills step 1 with valid values and goes on. */
async function fillUserStep(email = 'new@owner.test') {
  await type('signup-name', 'Nora Owner');
  await type('signup-email', email);
  await type('signup-password', 'Secret1!');
  await type('signup-repeat', 'Secret1!');
  fireEvent.click(await byTestId('signup-next'));
  await byTestId('signup-step-organization');
}

describe('sign-up wizard', () => {
  it('checks step 1 before going on: required fields, password rules and the repeated password', async () => {
    renderIdentity(identityApi({ organization: null, amount: 2900 }), '/signup');
    fireEvent.click(await byTestId('signup-next'));
    expect((await screen.findAllByText(MESSAGES.required)).length).toBeGreaterThanOrEqual(3);
    expect(screen.queryByTestId('signup-step-organization')).toBeNull();

    await type('signup-name', 'Nora');
    await type('signup-email', 'not-an-email');
    await type('signup-password', 'secret');
    await type('signup-repeat', 'other');
    fireEvent.click(await byTestId('signup-next'));
    expect(await screen.findByText(MESSAGES.invalidEmail)).toBeTruthy();
    expect(screen.getByText('This password does not meet the rules marked below')).toBeTruthy();
    expect(screen.queryByText(MESSAGES.passwordUppercase)).toBeNull();
    expect(screen.getByText(MESSAGES.passwordsMismatch)).toBeTruthy();
    expect(screen.queryByTestId('signup-step-organization')).toBeNull();
  });

  it('checks the domain live on step 2 and shows the amount due in dollars on step 3, then pays', async () => {
    const api = identityApi({ organization: null, amount: 2900 });
    renderIdentity(api, '/signup?invite=inv-7');
    await fillUserStep();
    expect((await byTestId('signup-domain-suffix')).textContent).toBe(`.${window.location.host}`);
    await type('signup-org-name', 'Owner Ltd');
    await type('signup-domain', 'Bad_Domain');
    expect(await screen.findByText(MESSAGES.orgDomainInvalid)).toBeTruthy();
    await type('signup-domain', 'demo');
    expect(await screen.findByText(MESSAGES.orgDomainReserved)).toBeTruthy();
    fireEvent.click(await byTestId('signup-next'));
    expect(screen.queryByTestId('signup-step-payment')).toBeNull();
    await type('signup-domain', 'owner-ltd');
    fireEvent.click(await byTestId('signup-next'));

    expect((await byTestId('signup-amount')).textContent).toBe('Amount due: $29.00');
    expect((await byTestId('signup-pay')).textContent).toBe('Pay $29.00');
    fireEvent.click(await byTestId('signup-pay'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:8787/signup/checkout/s1'));
    expect(api.callsTo('/signup')[0].body).toEqual({
      user: { name: 'Nora Owner', email: 'new@owner.test', password: 'Secret1!' },
      organization: { name: 'Owner Ltd', domain: 'owner-ltd' },
      invite: 'inv-7',
    });
  });

  it('formats the amount in the UI language', async () => {
    renderIdentity(identityApi({ organization: null, amount: 2900 }), '/signup', 'de');
    await fillUserStep();
    await type('signup-org-name', 'Owner Ltd');
    await type('signup-domain', 'owner-ltd');
    fireEvent.click(await byTestId('signup-next'));
    expect((await byTestId('signup-amount')).textContent?.replace(/\s/g, ' ')).toBe('Zu zahlen: 29,00 $');
  });

  it('maps server 422 messages back to the step holding the field', async () => {
    const api = identityApi({ organization: null, amount: 2900 });
    renderIdentity(api, '/signup');
    await fillUserStep('used@x.test');
    await type('signup-org-name', 'Owner Ltd');
    await type('signup-domain', 'owner-ltd');
    fireEvent.click(await byTestId('signup-next'));
    fireEvent.click(await byTestId('signup-pay'));
    // Back on step 1, with the server's message under the email.
    await byTestId('signup-step-user');
    expect(screen.getByText(MESSAGES.duplicate)).toBeTruthy();
    expect((await byTestId('signup-error')).textContent).toBe(MESSAGES.invalidForm);
    expect(assign).not.toHaveBeenCalled();
    // Editing the field clears its server message.
    await type('signup-email', 'fresh@x.test');
    await waitFor(() => expect(screen.queryByText(MESSAGES.duplicate)).toBeNull());

    fireEvent.click(await byTestId('signup-next'));
    await type('signup-domain', 'taken');
    fireEvent.click(await byTestId('signup-next'));
    fireEvent.click(await byTestId('signup-pay'));
    await byTestId('signup-step-organization');
    expect(screen.getByText(MESSAGES.duplicate)).toBeTruthy();
  });

  it('shows a note when the checkout was cancelled, and the reason when sign-up is paused', async () => {
    const first = renderIdentity(identityApi({ organization: null }), '/signup?cancelled=1');
    expect((await byTestId('signup-cancelled')).textContent).toContain('cancelled');
    first.unmount();
    renderIdentity(identityApi({ organization: null, signupActive: false }), '/signup');
    expect((await byTestId('signup-unavailable')).textContent).toContain(MESSAGES.registrationPaused);
    expect((await byTestId('signup-pre-registration')).getAttribute('href')).toBe('/pre-registration');
  });

  it('lets an invited visitor (approved pre-registration) sign up while registration is paused', async () => {
    renderIdentity(identityApi({ organization: null, signupActive: false }), '/signup?invite=inv-1');
    expect(await byTestId('signup-step-user')).toBeTruthy();
    expect(screen.queryByTestId('signup-unavailable')).toBeNull();
  });
});

describe('test checkout and completion', () => {
  const pending = (api: ReturnType<typeof identityApi>) =>
    api.signups.set('s9', { id: 's9', status: 'pending', amount: 2900, currency: 'usd', email: 'nora@owner.test', domain: 'owner', checkout_url: '' });

  it('labels the test payment, pays and waits on /signup/done for the paid status', async () => {
    const api = identityApi({ organization: null });
    pending(api);
    renderIdentity(api, '/signup/checkout/s9');
    expect((await byTestId('test-checkout-badge')).textContent).toBe('Test payment');
    expect((await byTestId('test-checkout-email')).textContent).toContain('nora@owner.test');
    expect((await byTestId('test-checkout-amount')).textContent).toBe('Amount due: $29.00');
    fireEvent.click(await byTestId('test-checkout-pay'));
    await waitFor(() => expect(window.location.pathname).toBe('/signup/done'));
    expect(window.location.search).toBe('?id=s9');
    expect(api.callsTo('/signup/s9/test-payment')).toHaveLength(1);
    expect((await byTestId('signup-done-paid')).textContent).toBe('Payment received: we emailed a link to complete your registration to nora@owner.test');
  });

  it('says so when the sign-up is already paid, and shows an unknown one as not found', async () => {
    const api = identityApi({ organization: null });
    pending(api);
    api.signups.get('s9')!.status = 'paid';
    const first = renderIdentity(api, '/signup/checkout/s9');
    expect((await byTestId('test-checkout-paid')).textContent).toBe('This sign-up is already paid.');
    expect(screen.queryByTestId('test-checkout-pay')).toBeNull();
    first.unmount();
    renderIdentity(api, '/signup/checkout/nope');
    expect((await byTestId('test-checkout-error')).textContent).toBe(MESSAGES.notFound);
  });

  it('says no account was created when the domain was taken before the payment arrived', async () => {
    const api = identityApi({ organization: null });
    pending(api);
    api.signups.get('s9')!.status = 'failed';
    renderIdentity(api, '/signup/done?id=s9');
    expect((await byTestId('signup-done-failed')).textContent).toContain('the domain owner was taken');
    expect(screen.queryByTestId('signup-done-paid')).toBeNull();
  });

  it('polls /signup/done until the webhook marked the sign-up paid', async () => {
    const api = identityApi({ organization: null });
    pending(api);
    api.payAfterPolls(2);
    renderIdentity(api, '/signup/done?id=s9');
    await byTestId('signup-done-waiting');
    expect((await screen.findByTestId('signup-done-paid', undefined, { timeout: 6000 })).textContent).toContain('nora@owner.test');
    expect(api.callsTo('/signup/s9').length).toBeGreaterThanOrEqual(2);
  }, 10_000);
});

describe('pre-registration', () => {
  it('shows field messages, then the request-sent message', async () => {
    const api = identityApi({ organization: null, signupActive: false });
    renderIdentity(api, '/pre-registration');
    await type('pre-registration-name', 'Pat');
    await type('pre-registration-email', 'pat@x.test');
    await type('pre-registration-organization', 'Pat Co');
    fireEvent.click(await byTestId('pre-registration-submit'));
    expect(await screen.findByText(MESSAGES.required)).toBeTruthy();
    await type('pre-registration-comments', 'We send newsletters.');
    await type('pre-registration-domain', 'Pat-Co');
    fireEvent.click(await byTestId('pre-registration-submit'));
    expect((await byTestId('pre-registration-sent')).textContent).toBe('Request sent: it is under review and you will be notified by email.');
    expect(api.callsTo('/pre-registration').at(-1)!.body).toEqual({
      name: 'Pat',
      email: 'pat@x.test',
      organization: 'Pat Co',
      comments: 'We send newsletters.',
      domain: 'pat-co',
    });
  });
});
