import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryOf, type Started, startSnip } from './processes.ts';
import { createGoal, type Goal, type Run, redirectGoal, rssGoal } from './report.ts';
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
  await timed('seed: 10k links', () => seedLinks(databaseUrl, store.accountId, 0, SMALL));
  const redirect = (codes: string) => () => ({ BENCH_CODES: codes });

  await session.measure({
    target: 'bare node:http 302 (the Node limit)',
    bare: true,
    servers: [bare],
    script: 'redirect.lua',
    env: redirect(hotSmall),
  });
  let snip = await startSnip(databaseUrl, `/${codeOf(0)}`, 302);
  const startSmall = memoryOf(snip.child.pid as number);
  const small = await session.measure({
    target: `snip redirect, 10k links, hot set ${HOT_SET}`,
    servers: [snip],
    script: 'redirect.lua',
    env: redirect(hotSmall),
  });
  await snip.stop();

  await timed('seed: up to 1M links', () => seedLinks(databaseUrl, store.accountId, SMALL, LARGE));
  const hotLarge = writeCodes(join(dir, 'hot-1m.txt'), sampleIndexes(LARGE, HOT_SET));
  const allLarge = writeCodes(
    join(dir, 'all-1m.txt'),
    Array.from({ length: LARGE }, (_, i) => i),
  );
  await session.measure({
    target: 'bare node:http 302 (the Node limit)',
    bare: true,
    servers: [bare],
    script: 'redirect.lua',
    env: redirect(hotLarge),
  });
  snip = await startSnip(databaseUrl, `/${codeOf(LARGE - 1)}`, 302);
  const startLarge = memoryOf(snip.child.pid as number);
  const large = await session.measure({
    target: `snip redirect, 1M links, hot set ${HOT_SET}`,
    servers: [snip],
    script: 'redirect.lua',
    env: redirect(hotLarge),
  });
  await session.measure({
    target: 'extra: snip redirect, 1M links, uniform over all 1M',
    servers: [snip],
    script: 'redirect.lua',
    env: redirect(allLarge),
  });
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
    goals: [redirectGoal('10k', small), redirectGoal('1M', large), createGoal(create), rssGoal(peakRssMb)],
    notes: [
      `snip RSS just after start: ${startSmall.rssMb.toFixed(0)} MB (10k), ${startLarge.rssMb.toFixed(0)} MB (1M); ` +
        `peak (VmHWM) ${small.peakRssMb?.toFixed(0)} MB in the 10k phase, ${peakRssMb.toFixed(0)} MB in the 1M phase`,
    ],
    memoryAtStart: { links10k: startSmall, links1m: startLarge },
  };
}
