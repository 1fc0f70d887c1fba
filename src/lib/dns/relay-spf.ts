// The SPF mechanism a well-known SMTP relay needs in its customers' SPF record, from the integration's host. Only
// relays whose published setup is a single include; any other host is unknown (null) and the console explains what
// to ask the provider for. Providers that use their own bounce domain (Postmark, SES without a custom MAIL FROM)
// pass SPF on that domain; their include is still what they document for the customer's own record.
import { normalizeName } from './doh';

/** Host suffix (the SMTP server's name ends with it) -> the SPF mechanism. */
const KNOWN_RELAYS: [suffix: string, mechanism: string][] = [
  ['sendgrid.net', 'include:sendgrid.net'],
  ['mailgun.org', 'include:mailgun.org'],
  ['amazonaws.com', 'include:amazonses.com'],
  ['postmarkapp.com', 'include:spf.mtasv.net'],
  ['brevo.com', 'include:spf.brevo.com'],
  ['sendinblue.com', 'include:spf.brevo.com'],
  ['gmail.com', 'include:_spf.google.com'],
  ['office365.com', 'include:spf.protection.outlook.com'],
  ['mailjet.com', 'include:spf.mailjet.com'],
  ['sparkpostmail.com', 'include:sparkpostmail.com'],
  ['mandrillapp.com', 'include:spf.mandrillsvc.com'],
];

/** The SPF mechanism for the relay at `host` (an SMTP integration's server), null when the relay is not known. */
export function spfMechanismForRelay(host: string): string | null {
  const name = normalizeName(host);
  // SES's SMTP endpoints are email-smtp.<region>.amazonaws.com; other amazonaws.com hosts are not SES.
  if (name.endsWith('.amazonaws.com') && !name.startsWith('email-smtp.')) return null;
  const known = KNOWN_RELAYS.find(([suffix]) => name === suffix || name.endsWith(`.${suffix}`));
  return known ? known[1] : null;
}
