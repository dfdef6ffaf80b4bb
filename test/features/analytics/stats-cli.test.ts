import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeInspector, runSnip, withStoreAt } from '../../fixtures/cli-harness.ts';
import { ANSWER_KEYS, type LinkIds, linkIds, VisitSeeder } from './stats-seed.ts';

/** `snip link stats` (docs/api.md §9.4): the API's answer from the store, for scripts and for people. */

const DAY_MS = 86_400_000;
const RETENTION_DAYS = 7;

let dir: string;
let env: Record<string, string>;
const snip = (...argv: string[]) => runSnip(env, { inspector: new FakeInspector() }, argv);

/** Links made by `link import` (no fetch), then visits written through the store's write path. */
async function linksWithVisits(): Promise<{ busy: LinkIds; quiet: LinkIds }> {
  const email = 'stats@example.com';
  assert.equal((await snip('account', 'create', email, '--plan', 'pro', '--json')).code, 0);
  const file = join(dir, 'links.csv');
  await writeFile(
    file,
    'url,slug\nhttps://example.com/busy,busy-link\nhttps://example.com/quiet,quiet-link\n',
  );
  assert.equal((await snip('link', 'import', email, file, '--no-inspect', '--json')).code, 0);
  return withStoreAt(env.DATABASE_URL as string, async (store) => {
    const busy = await linkIds(store, 'busy-link');
    const quiet = await linkIds(store, 'quiet-link');
    const seed = new VisitSeeder(store);
    const now = Date.now();
    // Twelve referrers, so the summary's top 10 ends in `other`; one visitor twice on one day.
    const visits = Array.from({ length: 12 }, (_, i) => ({
      at: now - 3 * DAY_MS,
      referrer: `site${String(i).padStart(2, '0')}.example`,
    }));
    const ana = VisitSeeder.visitor('ana');
    visits.push({ at: now - 3 * DAY_MS, referrer: 'site00.example', visitor: ana } as (typeof visits)[0]);
    visits.push({ at: now - 3 * DAY_MS, referrer: 'site00.example', visitor: ana } as (typeof visits)[0]);
    await seed.visits(busy, visits, { Googlebot: 2 });
    await seed.visits(busy, [{ at: now, source: 'qr', country: 'DE' }]);
    return { busy, quiet };
  });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'snip-cli-stats-'));
  env = {
    DATABASE_URL: `sqlite:${join(dir, 'snip.db')}`,
    BASE_URL: 'https://sn.ip',
    ANALYTICS_RETENTION_DAYS: String(RETENTION_DAYS),
  };
  assert.equal((await snip('migrate', '--json')).code, 0);
});
after(() => rm(dir, { recursive: true, force: true }));

describe('snip link stats', () => {
  let links: { busy: LinkIds; quiet: LinkIds };
  before(async () => {
    links = await linksWithVisits();
  });

  it('--json prints the answer of the API: 30 daily buckets by default, totals, breakdowns', async () => {
    const run = await snip('link', 'stats', 'busy-link', '--json');
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(Object.keys(run.json), ANSWER_KEYS);
    assert.equal(run.json.interval, 'day');
    const series = run.json.series as Array<{ t: string; clicks: number }>;
    assert.equal(series.length, 30);
    assert.equal(series.at(-1)?.t, `${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    assert.deepEqual(run.json.totals, { clicks: 15, unique_visitors: 14, bot_hits: 2, qr_scans: 1 });
    const referrers = run.json.referrers as Array<{ value: string; clicks: number }>;
    assert.equal(referrers.length, 13, 'all 12 sites and direct: fewer than 50, no other row');
    assert.deepEqual(referrers[0], { value: 'site00.example', clicks: 3 });
    assert.deepEqual(run.json.bots, [{ value: 'Googlebot', clicks: 2 }]);
  });

  it('takes --from, --to and --interval as the API does', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const daily = await snip('link', 'stats', 'busy-link', '--from', today, '--to', today, '--json');
    assert.equal(daily.code, 0, daily.err);
    assert.deepEqual(daily.json.series, [{ t: `${today}T00:00:00Z`, clicks: 1, unique_visitors: 1 }]);
    const hourly = await snip('link', 'stats', 'busy-link', '--interval', 'hour', '--from', today, '--json');
    assert.equal(hourly.code, 0, hourly.err);
    assert.equal(hourly.json.interval, 'hour');
    assert.equal((hourly.json.series as unknown[]).length, 24);
    assert.equal((hourly.json.totals as { clicks: number }).clicks, 1);
  });

  it('prints a summary for people: totals, a line per day, the top 10 of each breakdown', async () => {
    const run = await snip('link', 'stats', 'busy-link');
    assert.equal(run.code, 0, run.err);
    const lines = run.out.split('\n');
    assert.match(lines[0] ?? '', /^\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} \(UTC\), by day$/);
    assert.ok(lines.some((line) => /^ {2}Clicks +15$/.test(line)));
    assert.ok(lines.some((line) => /^ {2}Unique visitors \(summed per day\) +14$/.test(line)));
    assert.ok(lines.some((line) => /^ {2}Bot hits +2$/.test(line)));
    assert.ok(lines.some((line) => /^ {2}QR scans +1$/.test(line)));
    const days = lines.filter((line) => /^ {2}\d{4}-\d{2}-\d{2} +\d+$/.test(line));
    assert.equal(days.length, 30);
    const referrers = lines.slice(lines.indexOf('Referrers') + 1, lines.indexOf('Countries') - 1);
    assert.equal(referrers.length, 11, 'the top 10 and other');
    assert.match(referrers[0] ?? '', /^ {2}site00\.example +3$/);
    assert.match(referrers[10] ?? '', /^ {2}other +3$/);
    assert.ok(lines.includes('Bots (hits)'));
    const quiet = await snip('link', 'stats', 'quiet-link');
    assert.equal(quiet.code, 0, quiet.err);
    assert.ok(quiet.out.includes('Referrers\n  (none)'));
  });

  it('exits 2 with a message naming the flag for a range it cannot read', async () => {
    const old = new Date(Date.now() - (RETENTION_DAYS + 2) * DAY_MS).toISOString().slice(0, 10);
    const cases: Array<[string[], string]> = [
      [['--from', '2026-11-10', '--to', '2026-11-01'], 'from'],
      [['--from', '2024-01-01', '--to', '2025-06-01'], 'to'],
      [['--interval', 'hour', '--from', old], 'interval'],
      [['--interval', 'week'], 'interval'],
      [['--from', 'yesterday'], 'from'],
      [['--to', '2023-02-29'], 'to'],
    ];
    for (const [flags, flag] of cases) {
      const run = await snip('link', 'stats', 'busy-link', ...flags);
      assert.equal(run.code, 2, `${flags.join(' ')}: ${run.err}`);
      assert.equal(run.out, '');
      assert.match(run.err, new RegExp(`^snip: --${flag}: `));
      const json = await snip('link', 'stats', 'busy-link', ...flags, '--json');
      assert.equal(json.code, 2);
      assert.equal(json.json.flag, flag);
    }
  });

  it('refuses a code no live link has with 314, exit 1', async () => {
    const run = await snip('link', 'stats', 'no-such-link');
    assert.equal(run.code, 1);
    assert.match(run.err, /no-such-link.*\[314\]/);
    const json = await snip('link', 'stats', 'no-such-link', '--json');
    assert.equal(json.code, 1);
    assert.equal(json.json.code, '314');
    assert.equal((await snip('link', 'delete', links.quiet.code, '--json')).code, 0);
    assert.equal((await snip('link', 'stats', links.quiet.code)).code, 1);
  });

  it('is a usage error without a code or with a flag it does not take', async () => {
    assert.equal((await snip('link', 'stats')).code, 64);
    assert.equal((await snip('link', 'stats', 'busy-link', '--limit', '3')).code, 64);
    const help = await snip('link', 'stats', '--help');
    assert.equal(help.code, 0);
    assert.match(
      help.out,
      /usage: snip link stats <short_code> \[--domain HOST\] \[--from D\] \[--to D\] \[--interval hour\|day\]/,
    );
  });
});
