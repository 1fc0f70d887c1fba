import { expect } from 'vitest';
import type { Locator, Page, Response } from 'playwright-core';
import { SEED_USER } from '../../scripts/lib/seed-data.mjs';

/** The element with a stable test id (web/TESTIDS.md). */
export const byId = (scope: Page | Locator, id: string) => scope.locator(`[data-testid="${id}"]`);

/** Polls `read` until it returns something equal to `expected` (or the timeout ends), then asserts it. */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 150));
    value = await read();
  }
  expect(value).toEqual(expected);
}

/** Waits for the API answer to a request whose path ends with `pathEnd` and method is `method`. */
export function apiResponse(page: Page, method: string, pathEnd: string | RegExp): Promise<Response> {
  return page.waitForResponse((res) => {
    const url = new URL(res.url());
    if (res.request().method() !== method || !url.pathname.startsWith('/api/v1/')) return false;
    return typeof pathEnd === 'string' ? url.pathname.endsWith(pathEnd) : pathEnd.test(url.pathname);
  });
}

/** Signs in on `base` through the password tab; returns the status of the token call (200 on success). */
export async function passwordSignIn(page: Page, base: string, username: string, password: string): Promise<number> {
  await page.goto(`${base}/`);
  await byId(page, 'signin-tab-password').click();
  await byId(page, 'signin-username').fill(username);
  await byId(page, 'signin-password').fill(password);
  const answer = apiResponse(page, 'POST', '/internal-auth/token-create');
  await byId(page, 'signin-submit').click();
  return (await answer).status();
}

/**
 * Signs in as the seeded user through the password tab on / and waits until the sign-in form is gone. The console
 * keeps a user's language with the user, and every e2e file shares this user: a test that switched the language
 * left it switched, so each sign-in starts from English again.
 */
export async function signIn(page: Page, baseUrl: string): Promise<void> {
  expect(await passwordSignIn(page, baseUrl, SEED_USER.username, SEED_USER.password)).toBe(200);
  await byId(page, 'signin-username').waitFor({ state: 'detached' });
  const me = await apiFromPage<{ data: { id: number; language: string | null } }>(page, 'GET', '/internal-user/me');
  if (me.body.data.language && me.body.data.language !== 'en') {
    expect((await apiFromPage(page, 'PUT', `/internal-user/${me.body.data.id}/language`, { language: 'en' })).status).toBe(200);
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.reload();
    await byId(page, 'language-switcher').waitFor();
  }
}

/** The names shown by the list rows, in order, picked from the names the test knows about. */
export async function rowNames(page: Page, known: string[]): Promise<string[]> {
  const texts = await byId(page, 'list-row').allInnerTexts();
  return texts.map((text) => {
    const cells = text.split(/[\t\n]/).map((cell) => cell.trim());
    return known.find((name) => cells.includes(name)) ?? `?${text}`;
  });
}

/** Drags one row's handle onto another row, the way a person would (dnd-kit needs real pointer moves). */
export async function dragRow(page: Page, from: Locator, to: Locator): Promise<void> {
  const handle = byId(from, 'row-drag-handle');
  await handle.scrollIntoViewIfNeeded();
  const a = await handle.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('drag: row or handle is not visible');
  const startX = a.x + a.width / 2;
  const startY = a.y + a.height / 2;
  const down = b.y > a.y;
  const endY = b.y + b.height * (down ? 0.75 : 0.25);
  await page.mouse.move(startX, startY);
  await page.mouse.down();
  await page.mouse.move(startX, startY + (down ? 8 : -8), { steps: 4 }); // past the activation distance
  await page.mouse.move(startX, endY, { steps: 20 });
  await page.waitForTimeout(200);
  await page.mouse.up();
}

/**
 * Picks options of a Mantine Select or MultiSelect: opens it by its input (typing `search` first when given, for a long
 * list), clicks each option by its text, closes it.
 */
export async function pickOptions(page: Page, input: Locator, labels: string[], search?: string): Promise<void> {
  await input.click();
  if (search !== undefined) await input.fill(search);
  for (const label of labels) {
    // The open dropdown is the only listbox on the page; its options carry role="option".
    await page.getByRole('listbox').getByRole('option', { name: label, exact: true }).click();
  }
  await page.keyboard.press('Escape');
  // Hidden, not detached: a dropdown may stay in the page closed. A list that does not close fails here.
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
}

/** Waits until a list screen has settled (no pending search, load or save: data-busy="false"). */
export async function listSettled(page: Page): Promise<void> {
  await page.locator('[data-testid="list-screen"][data-busy="false"]').first().waitFor();
}

/** Picks an option of a searchable select that searches on the server: types `search`, then clicks the option. */
export async function searchAndPick(page: Page, input: Locator, search: string, label: string | RegExp): Promise<void> {
  await input.click();
  await input.fill(search);
  await page.getByRole('listbox').getByRole('option', { name: label }).click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
}

/** Opens a path of the console as its own links do, without loading the page again (wouter follows pushState). */
export async function openInConsole(page: Page, path: string): Promise<void> {
  await page.evaluate(`history.pushState(null, '', ${JSON.stringify(path)})`);
}

/** Calls the API from the signed-in page (same origin, the console's own bearer token); JSON in and out. */
export async function apiFromPage<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const answer = await page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(`/api/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${localStorage.getItem('accessToken') ?? ''}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
    },
    { method, path, body },
  );
  return answer as { status: number; body: T };
}
