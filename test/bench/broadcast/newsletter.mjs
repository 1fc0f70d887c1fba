// A realistic newsletter for bench:broadcast: a table layout with inline styles as email builders write it, a
// header image, 40 stories each with an image, a teaser and a link, a personal greeting and a footer with the
// unsubscribe link and the postal address; about 60 KB of html. Deterministic, so runs compare.

const STORY_WORDS =
  'market quarterly growth customers product launch design team community event update release partners feature report city weekend offer guide'.split(' ');

function teaser(i) {
  const words = [];
  for (let k = 0; k < 70; k++) words.push(STORY_WORDS[(i * 7 + k * 3) % STORY_WORDS.length]);
  return `${words.join(' ')}.`;
}

function story(i) {
  return `
<tr>
  <td style="padding:16px 24px;border-bottom:1px solid #e5e7eb;font-family:Helvetica,Arial,sans-serif">
    <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr>
      <td width="120" valign="top" style="padding-right:16px"><img src="https://cdn.acme.test/news/2026-11/story-${i}.jpg" width="120" height="80" alt="Story ${i + 1}" style="display:block;border:0;border-radius:4px"></td>
      <td valign="top">
        <h2 style="margin:0 0 6px;font-size:18px;line-height:24px;color:#111827">Story ${i + 1}: what changed this month</h2>
        <p style="margin:0 0 8px;font-size:14px;line-height:21px;color:#374151">${teaser(i)}</p>
        <a href="https://www.acme.test/news/2026/11/story-${i + 1}?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=november" style="font-size:14px;color:#2563eb;text-decoration:underline">Read the whole story</a>
      </td>
    </tr></table>
  </td>
</tr>`;
}

/** The newsletter's html (Liquid placeholders for the greeting and the unsubscribe link). */
export function newsletterHtml() {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Acme news, November</title>
<style>@media (max-width:600px){.wrap{width:100% !important}}</style></head>
<body style="margin:0;padding:0;background:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6"><tr><td align="center">
<table role="presentation" class="wrap" width="600" cellpadding="0" cellspacing="0" border="0" style="background:#ffffff;margin:24px 0">
<tr><td style="padding:0"><img src="https://cdn.acme.test/news/2026-11/header.png" width="600" height="160" alt="Acme news" style="display:block;border:0;width:100%;height:auto"></td></tr>
<tr><td style="padding:24px;font-family:Helvetica,Arial,sans-serif"><h1 style="margin:0 0 8px;font-size:24px;color:#111827">Hello {{ contact.name }},</h1>
<p style="margin:0;font-size:15px;line-height:22px;color:#374151">Here is what happened at {{ organization.name }} in November: forty stories, one click away each.</p></td></tr>
${Array.from({ length: 40 }, (_, i) => story(i)).join('')}
<tr><td style="padding:24px;font-family:Helvetica,Arial,sans-serif;font-size:12px;line-height:18px;color:#6b7280;text-align:center">
You get this because you subscribed to Acme news. <a href="{{ unsubscribe_url }}" style="color:#6b7280">Unsubscribe</a><br>
Acme Corp, 1 Market Street, Springfield<br>
<a href="mailto:news@acme.test" style="color:#6b7280">news@acme.test</a></td></tr>
</table></td></tr></table>
</body></html>`;
}
