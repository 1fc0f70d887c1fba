import type { SystemMail } from '../system-mail/queue-mail';

// The mail sign-up and pre-registration send: plain text plus simple HTML, in English.

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

function html(paragraphs: string[], link?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = link ? `\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : '';
  return `<!doctype html>\n<html><body style="font-family: sans-serif">\n${body}${button}\n</body></html>`;
}

/** After payment: the link that completes the sign-up (valid 7 days). */
export function completionMail(to: string, name: string, orgName: string, link: string): SystemMail {
  const lines = [`Hello ${name},`, `Thank you: your payment for ${orgName} went through and your account is ready.`];
  const tail = 'Open the link below to complete your registration. It is valid for 7 days and can be used once.';
  return {
    to,
    subject: 'Complete your registration',
    text: `${lines.join('\n\n')}\n\n${tail}\n\n${link}\n`,
    html: html([...lines, tail], { href: link, label: 'Complete registration' }),
  };
}

/** A pre-registration request was received and is under review. */
export function preRegistrationReceivedMail(to: string, name: string): SystemMail {
  const lines = [`Hello ${name},`, 'We have received your pre-registration request. It is under review: we will email you the outcome.'];
  return { to, subject: 'Pre-registration request received', text: `${lines.join('\n\n')}\n`, html: html(lines) };
}

/** An operator approved a pre-registration: the invitation to sign up. */
export function preRegistrationApprovedMail(to: string, name: string, inviteUrl: string, note: string | null): SystemMail {
  const lines = [`Hello ${name},`, 'Your pre-registration request was approved. Use the link below to sign up.'];
  if (note) lines.push(note);
  return {
    to,
    subject: 'Your pre-registration request was approved',
    text: `${lines.join('\n\n')}\n\n${inviteUrl}\n`,
    html: html(lines, { href: inviteUrl, label: 'Sign up' }),
  };
}

/** An operator declined a pre-registration. */
export function preRegistrationDeclinedMail(to: string, name: string, note: string | null): SystemMail {
  const lines = [`Hello ${name},`, 'We are sorry: your pre-registration request was declined.'];
  if (note) lines.push(note);
  return { to, subject: 'Your pre-registration request was declined', text: `${lines.join('\n\n')}\n`, html: html(lines) };
}
