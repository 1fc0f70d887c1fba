import { html } from 'hono/html';

/** A plain page for a subdomain with no organisation behind it (no console bundle is loaded). */
export function unknownOrganizationPage(label: string) {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Organisation not found</title>
    <style>
      body { font-family: system-ui, sans-serif; display: grid; place-items: center; min-height: 100vh; margin: 0; color: #222; }
      main { max-width: 32rem; padding: 2rem; text-align: center; }
      code { background: #f2f2f2; padding: 0 .3rem; border-radius: 4px; }
    </style>
  </head>
  <body>
    <main>
      <h1>Organisation not found</h1>
      <p>There is no organisation at <code>${label}</code>. Check the address, or ask your administrator for the right one.</p>
    </main>
  </body>
</html>`;
}
