import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../src/adapters/open-store.ts';
import type { NewLink } from '../src/core/entities.ts';
import { urlHash } from '../src/core/target-url.ts';
import { startNginx } from './nginx.ts';
import { memoryOf, metricsOf, type Started, startSnip } from './processes.ts';
import { coldGoal, cpuGoal, createGoal, type Goal, nginxGoal, p99Goal, type Run, rssGoal } from './report.ts';
import { codeOf, prepareStore, sampleIndexes, seedLinks, writeCodes } from './seed.ts';
import type { Session } from './session.ts';
import { timed } from './session.ts';
import { HOT_SET, KEYS, LARGE, SMALL } from './settings.ts';

/** Single-process Snip on SQLite: redirects at 10k and 1M links, then POST /create at 1M links. */

export interface Bench {
  session: Session;
  /** Scratch directory, removed at exit. */
  dir: string;
  bare: Started;
  /** The pages POST /create inspects. */
  target: Started;
  /** HOT_SET codes out of the first SMALL seeded links (redirect.lua's BENCH_CODES). */
  hotSmall: string;
}

export interface SqliteResults {
  redirectSmall: Run;
  create: Run;
  goals: Goal[];
  notes: string[];
  memoryAtStart: object;
}

export async function sqlitePhase({ session, dir, bare, target, hotSmall }: Bench): Promise<SqliteResults> {
  const databaseUrl = `sqlite:${join(dir, 'snip.db')}`;
  const store = await timed(`store: ${KEYS} accounts with keys`, () => prepareStore(databaseUrl, KEYS));
  const keysFile = join(dir, 'keys-sqlite.txt');
  writeFileSync(keysFile, `${store.apiKeys.join('\n')}\n`);
  await timed('seed: 10k links', () => seedLinks(databaseUrl, store.workspaceId, 0, SMALL));
  const redirect = (codes: string) => () => ({ BENCH_CODES: codes });

  await session.measure({
    target: 'bare node:http 302 (the Node limit)',
    bare: true,
    servers: [bare],
    script: 'redirect.lua',
    env: redirect(hotSmall),
  });
  const nginx = await startNginx(dir, 'https://example.com/articles');
  const floor = await session.measure({
    target: 'nginx return 302, one process (the practical floor)',
    servers: [nginx],
    script: 'redirect.lua',
    env: redirect(hotSmall),
  });
  await nginx.stop();
  let snip = await startSnip(databaseUrl, `/${codeOf(0)}`, 302);
  const startSmall = memoryOf(snip.child.pid as number);
  const small = await session.measure({
    target: `snip redirect, 10k links, hot set ${HOT_SET}`,
    servers: [snip],
    script: 'redirect.lua',
    env: redirect(hotSmall),
  });
  // The same hot load from one wrk thread over 32 connections: less of the 2 cores goes to wrk.
  const light = { threads: 1, connections: 32 };
  await session.measure({
    target: 'bare node:http 302, wrk -t1 -c32',
    bare: true,
    servers: [bare],
    script: 'redirect.lua',
    env: redirect(hotSmall),
    load: light,
  });
  const smallLight = await session.measure({
    target: `snip redirect, 10k links, hot set ${HOT_SET}, wrk -t1 -c32`,
    servers: [snip],
    script: 'redirect.lua',
    env: redirect(hotSmall),
    load: light,
  });
  // The CPU line: browser clicks (each a human click, analytics recorded with the default
  // TRACKING=full), wrk -t1 -c32, against the bare server under the same load.
  const browsing = () => ({ BENCH_CODES: hotSmall, ...BROWSER_CLICK });
  await session.measure({
    target: 'bare node:http 302, browser clicks, wrk -t1 -c32',
    bare: true,
    servers: [bare],
    script: 'redirect.lua',
    env: browsing,
    load: light,
  });
  const fullLight = await session.measure({
    target: `snip redirect, 10k links, hot set ${HOT_SET}, browser clicks, TRACKING=full, wrk -t1 -c32`,
    servers: [snip],
    script: 'redirect.lua',
    env: browsing,
    load: light,
  });
  await session.measure({
    target: 'bare node:http 302 (the Node limit)',
    bare: true,
    servers: [bare],
    script: 'redirect.lua',
    env: redirect(hotSmall),
  });
  const guarded = await measureGuardedLinks(session, dir, databaseUrl, store.workspaceId, snip);
  await snip.stop();
  const tracking = await measureTracking(session, databaseUrl, hotSmall, bare);

  await timed('seed: up to 1M links', () => seedLinks(databaseUrl, store.workspaceId, SMALL, LARGE));
  const hotLarge = writeCodes(join(dir, 'hot-1m.txt'), sampleIndexes(LARGE, HOT_SET));
  const allLarge = writeCodes(
    join(dir, 'all-1m.txt'),
    Array.from({ length: LARGE }, (_, i) => i),
  );
  // The 1M phase clicks as browsers do, so analytics (TRACKING=full, the default) record every one.
  const clicking = (codes: string) => () => ({ BENCH_CODES: codes, ...BROWSER_CLICK });
  await session.measure({
    target: 'bare node:http 302 (the Node limit)',
    bare: true,
    servers: [bare],
    script: 'redirect.lua',
    env: clicking(hotLarge),
  });
  snip = await startSnip(databaseUrl, `/${codeOf(LARGE - 1)}`, 302);
  const startLarge = memoryOf(snip.child.pid as number);
  const large = await session.measure({
    target: `snip redirect, 1M links, hot set ${HOT_SET}, browser clicks`,
    servers: [snip],
    script: 'redirect.lua',
    env: clicking(hotLarge),
  });
  const uniform = await session.measure({
    target: 'snip redirect, 1M links, uniform over all 1M (cold), browser clicks',
    servers: [snip],
    script: 'redirect.lua',
    env: clicking(allLarge),
  });
  // The clicks of that run are still being written (each to another link's rows): the create run
  // starts once they are, and how long that took is reported beside it.
  const drainSeconds = await drained(snip.url);
  const create = await session.measure({
    target: `snip POST /create, ${KEYS} keys, local target`,
    servers: [snip],
    script: 'create.lua',
    env: (tag) => ({ BENCH_KEYS: keysFile, BENCH_TARGET: target.url, BENCH_RUN: tag }),
  });
  const peakRssMb = create.peakRssMb ?? 0;
  await snip.stop();

  return {
    redirectSmall: small,
    create,
    goals: [
      cpuGoal(fullLight),
      nginxGoal(fullLight, floor),
      p99Goal('hot redirect, 10k links', small, 5),
      p99Goal('hot redirect, 1M links, browser clicks', large, 5),
      coldGoal(uniform),
      createGoal(create),
      rssGoal(peakRssMb),
    ],
    notes: [
      `after the uniform run the click writer needed ${drainSeconds.toFixed(1)} s more to write its clicks ` +
        '(each to another link: counts, daily rows and the event of a cold link per click); the create run waited for it',
      `hot redirect (10k links) at wrk -t1 -c32: ${smallLight.cpuUsPerRequest?.toFixed(1)} µs server CPU ` +
        `per request, ${smallLight.cpuVsBare?.toFixed(2)}× the bare server's under the same load`,
      `hot redirect (10k links): ${small.cpuUsPerRequest?.toFixed(1)} µs server CPU per request, ` +
        `${((small.cpuUsPerRequest ?? 0) / Math.max(0.01, floor.cpuUsPerRequest ?? 0)).toFixed(2)}× nginx's ` +
        `${floor.cpuUsPerRequest?.toFixed(1)} µs`,
      ...guarded,
      ...tracking.notes,
      `snip RSS just after start: ${startSmall.rssMb.toFixed(0)} MB (10k), ${startLarge.rssMb.toFixed(0)} MB (1M); ` +
        `peak (VmHWM) ${small.peakRssMb?.toFixed(0)} MB in the 10k phase, ${peakRssMb.toFixed(0)} MB in the 1M phase`,
    ],
    memoryAtStart: { links10k: startSmall, links1m: startLarge },
  };
}

/**
 * One hot link each, clicked by a browser (a User-Agent, so every request is a human click): a plain
 * link, one with targeting rules that none of the requests matches (every rule is tried: the user
 * agent parsed, the language read), and one with a visit limit it never reaches (each click takes a
 * visit in the store). Their server CPU per request is set beside the plain link's.
 */
async function measureGuardedLinks(
  session: Session,
  dir: string,
  databaseUrl: string,
  workspaceId: number,
  snip: Started,
): Promise<string[]> {
  const links = { plain: 'benchP1', rules: 'benchR1', limited: 'benchL1' } as const;
  const store = await openStore(databaseUrl, { prepare: true });
  try {
    const add = async (code: string, url: string, guards: NewLink['guards']) => {
      const result = await store.insertLinkWithinQuota({
        code,
        domainId: 0,
        workspaceId,
        groupId: null,
        longUrl: url,
        normalizedUrl: url,
        urlHash: urlHash(url),
        title: code,
        guards,
      });
      if (result.kind !== 'created') throw new Error(`bench link ${code}: ${result.kind}`);
    };
    await add(links.plain, 'https://example.com/plain', {});
    await add(links.rules, 'https://example.com/ruled', {
      rules: [
        { if: { device: 'ios' }, url: 'https://example.com/ios' },
        { if: { device: 'android', country: 'DE' }, url: 'https://example.com/android-de' },
        { if: { language: 'fr' }, url: 'https://example.com/fr' },
      ],
    });
    await add(links.limited, 'https://example.com/limited', { maxClicks: 1_000_000_000 });
  } finally {
    await store.close();
  }
  const browser = (code: string) => () => ({
    BENCH_CODES: writeCodesOf(join(dir, `${code}.txt`), [code]),
    BENCH_UA: BROWSER_UA,
    BENCH_LANG: 'en-GB, en;q=0.9',
  });
  const plain = await session.measure({
    target: 'snip redirect, one plain link, browser clicks',
    servers: [snip],
    script: 'redirect.lua',
    env: browser(links.plain),
  });
  const rules = await session.measure({
    target: 'snip redirect, one link with 3 targeting rules (none matches), browser clicks',
    servers: [snip],
    script: 'redirect.lua',
    env: browser(links.rules),
  });
  const limited = await session.measure({
    target: 'snip redirect, one link with max_clicks (SQLite takes each visit), browser clicks',
    servers: [snip],
    script: 'redirect.lua',
    env: browser(links.limited),
  });
  const cpu = (run: Run) => run.cpuUsPerRequest ?? 0;
  const beside = (what: string, run: Run) =>
    `${what}: ${cpu(run).toFixed(1)} µs server CPU per request, ${(cpu(run) / Math.max(0.001, cpu(plain))).toFixed(2)}× ` +
    `the plain link's ${cpu(plain).toFixed(1)} µs (${run.ratioVsBare?.toFixed(2) ?? '?'}× bare req/s)`;
  return [beside('link with targeting rules', rules), beside('link with max_clicks', limited)];
}

const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
/** What a browser following a link from a page sends: each request a human click with a referrer. */
export const BROWSER_CLICK = {
  BENCH_UA: BROWSER_UA,
  BENCH_LANG: 'en-GB, en;q=0.9',
  BENCH_REFERER: 'https://news.example.com/2026/11/a-story?utm_source=feed',
};

/**
 * Visit analytics' cost (docs/api.md §9.3): browser clicks over the 10k hot set, on a bare server
 * and on Snip with TRACKING=off and =full, each as server CPU per request against the bare one's.
 */
async function measureTracking(
  session: Session,
  databaseUrl: string,
  hotSmall: string,
  bare: Started,
): Promise<{ notes: string[] }> {
  const env = () => ({ BENCH_CODES: hotSmall, ...BROWSER_CLICK });
  await session.measure({
    target: 'bare node:http 302, browser clicks',
    bare: true,
    servers: [bare],
    script: 'redirect.lua',
    env,
  });
  const runs: Partial<Record<'off' | 'full', Run>> = {};
  for (const tracking of ['off', 'full'] as const) {
    const snip = await startSnip(databaseUrl, `/${codeOf(0)}`, 302, { TRACKING: tracking });
    runs[tracking] = await session.measure({
      target: `snip redirect, 10k links, browser clicks, TRACKING=${tracking}`,
      servers: [snip],
      script: 'redirect.lua',
      env,
    });
    await snip.stop();
  }
  const off = runs.off as Run;
  const full = runs.full as Run;
  return {
    notes: [
      `analytics: TRACKING=full ${full.cpuUsPerRequest?.toFixed(1)} µs vs off ${off.cpuUsPerRequest?.toFixed(1)} µs ` +
        `server CPU per browser click (${((full.cpuUsPerRequest ?? 0) / Math.max(0.01, off.cpuUsPerRequest ?? 0)).toFixed(2)}×); ` +
        `peak RSS ${full.peakRssMb?.toFixed(0)} MB vs ${off.peakRssMb?.toFixed(0)} MB`,
    ],
  };
}

/**
 * Waits until the server has written every click it buffered (its snip_clicks_pending_links and
 * snip_visits_pending gauges read 0 twice in a row, 250 ms apart; at most 120 s) and answers how many
 * seconds that took.
 */
async function drained(url: string): Promise<number> {
  const started = performance.now();
  let zeros = 0;
  while (zeros < 2 && performance.now() - started < 120_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const pending = await metricsOf(url, ['snip_clicks_pending_links', 'snip_visits_pending']);
    zeros = pending.every((n) => n === 0) ? zeros + 1 : 0;
  }
  return (performance.now() - started) / 1000;
}

function writeCodesOf(path: string, codes: readonly string[]): string {
  writeFileSync(path, `${codes.join('\n')}\n`);
  return path;
}
