// bench:bulk-delete — "Delete all" at size: N contacts (default 200,000) of the seeded organisation, each with an
// address and a tag, deleted through the API as the console does it (DELETE /api/v1/contact with "all": true,
// one removing page after another until nothing is left), while another organisation keeps listing its contacts.
// Prints rows/s, and that other organisation's list p99 while the deletion runs beside its p99 on the idle
// database (same run, same requests). Run: npm run bench:bulk-delete [N=...] [PAGE_SIZE=...] [REQUESTS=...]
import { apiRequest, closeHttp, signIn } from './support/http.mjs';
import { d1Execute, startBenchPlatform, taggedContactsSql } from './support/platform.mjs';
import { SEED_USER } from '../../scripts/lib/seed-data.mjs';
import { percentile } from './support/stats.mjs';

const N = Number(process.env.N) || 200_000;
const PAGE_SIZE = Number(process.env.PAGE_SIZE) || 100;
const REQUESTS = Number(process.env.REQUESTS) || 300;
const OTHER = 'other';

const fmt = (ms) => ms.toFixed(2);

/** A second organisation with 1,000 contacts and a user who signs in with the seeded user's password. */
function otherOrganisationSql() {
  const org = `(SELECT id FROM organizations WHERE domain = '${OTHER}')`;
  return [
    `INSERT INTO organizations (name, domain) VALUES ('Other Ltd', '${OTHER}');`,
    `INSERT INTO users (org_id, name, username, email, password_hash) SELECT ${org}, 'Olive Other', '${SEED_USER.username}', '${SEED_USER.email}', password_hash FROM users WHERE username = '${SEED_USER.username}' AND org_id = (SELECT id FROM organizations WHERE domain = 'acme');`,
    `WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE x < 1000) INSERT INTO contacts (org_id, name) SELECT ${org}, 'Neighbour ' || x FROM k;`,
    `INSERT INTO contact_addresses (org_id, contact_id, type, value) SELECT org_id, id, 'email', 'neighbour' || id || '@other.test' FROM contacts WHERE org_id = ${org};`,
  ].join('\n');
}

/** The other organisation's list requests, one after another, until `until()` says stop (or `count` were made). */
async function listLoop(platform, host, token, { count = Infinity, until = () => false } = {}) {
  const times = [];
  for (let i = 0; i < count && !until(); i++) {
    const started = performance.now();
    const res = await apiRequest(platform.port, host, { path: `/api/v1/contact?page=${1 + (i % 20)}&page_size=10`, token });
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`other organisation's list: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  return times;
}

async function main() {
  const platform = await startBenchPlatform('bulk-delete');
  try {
    let started = performance.now();
    await d1Execute(platform, taggedContactsSql(N, 'Doomed'));
    await d1Execute(platform, otherOrganisationSql());
    console.log(
      `seeded ${N.toLocaleString('en')} contacts (address and tag each) and a second organisation in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const token = await signIn(platform.port, platform.host);
    const otherHost = platform.host.replace(/^acme\./, `${OTHER}.`);
    const otherToken = await signIn(platform.port, otherHost);

    await listLoop(platform, otherHost, otherToken, { count: 20 }); // warm-up
    const idle = await listLoop(platform, otherHost, otherToken, { count: REQUESTS });

    let done = false;
    let deleted = 0;
    let pages = 0;
    started = performance.now();
    const deleting = (async () => {
      try {
        for (;;) {
          const res = await apiRequest(platform.port, platform.host, {
            method: 'DELETE',
            path: '/api/v1/contact',
            token,
            json: { all: true, page_size: PAGE_SIZE },
          });
          if (res.status !== 200) throw new Error(`DELETE /api/v1/contact: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
          deleted += res.body.data.deleted;
          pages += 1;
          if (!res.body.data.more) break;
        }
      } finally {
        done = true;
      }
    })();
    const busy = await listLoop(platform, otherHost, otherToken, { until: () => done });
    await deleting;
    const seconds = (performance.now() - started) / 1000;
    const left = await apiRequest(platform.port, platform.host, { path: '/api/v1/contact?page_size=1', token });
    const neighbours = await apiRequest(platform.port, otherHost, { path: '/api/v1/contact?page_size=1', token: otherToken });
    if (deleted < N || left.body.meta.total !== 0) throw new Error(`deleted ${deleted} of ${N}; ${left.body.meta.total} left`);
    if (neighbours.body.meta.total !== 1000) throw new Error(`the other organisation lost contacts: ${neighbours.body.meta.total}`);

    const rate = deleted / seconds;
    const idle99 = percentile(idle, 99);
    const busy99 = percentile(busy, 99);
    console.log(
      `deleted ${deleted.toLocaleString('en')} contacts in ${pages} pages of ${PAGE_SIZE} in ${seconds.toFixed(1)} s; the other organisation still has its 1,000`,
    );
    console.log(
      `other organisation's list while deleting (${busy.length} requests): p50 ${fmt(percentile(busy, 50))} ms, p99 ${fmt(busy99)} ms | idle (${idle.length}): p50 ${fmt(percentile(idle, 50))} ms, p99 ${fmt(idle99)} ms`,
    );
    console.log(`goal: busy p99 at most 3x idle p99: ${busy99 / idle99 <= 3 ? 'met' : 'NOT met'}`);
    console.log(
      `bulk-delete: ${Math.round(rate)} rows/s | other org p99 while deleting: ${fmt(busy99)} ms | idle p99: ${fmt(idle99)} ms | ratio ${(busy99 / idle99).toFixed(2)}`,
    );
  } finally {
    closeHttp();
    await platform.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
