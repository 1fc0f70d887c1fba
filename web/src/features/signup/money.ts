import type { GuestInit } from '@shared/contracts/auth';

/** Formats an amount in cents (29 00 → $29.00) in the UI language. */
export function formatCents(cents: number, currency: string, language: string): string {
  const code = (currency || 'usd').toUpperCase();
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency: code }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${code}`;
  }
}

/** The price of sign-up as the platform publishes it in the guest init, or null before that has loaded. */
export function signupPrice(init: GuestInit | null): { amount: number; currency: string } | null {
  if (!init) return null;
  return { amount: init.settings['signup.amount'], currency: init.settings['signup.currency'] || 'usd' };
}
