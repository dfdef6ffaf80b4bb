import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../src/adapters/open-store.ts';
import type { NewLink } from '../src/core/entities.ts';
import { urlHash } from '../src/core/target-url.ts';
import { type Started, startSnip } from './processes.ts';
import type { Run } from './report.ts';
import { codeOf, prepareStore, sampleIndexes } from './seed.ts';
import type { Session } from './session.ts';
import { timed } from './session.ts';
import { HOT_SET, SMALL } from './settings.ts';

/**
 * A/B tests (docs/api.md §20.x, docs/adr/046): the redirect's CPU per request for links with an
 * A/B test (two variants, 50/50: the day's visitor hashed per request) beside plain links of the
 * same store and server, each after the bare server under the same load. Links without a test must
 * cost what they did; compare the plain line with the `domains` phase's one-domain line or an
 * older checkout (BENCH_SNIP_DIR).
 */

/** BASE_URL's host: 19 characters, as bench/lua/redirect-hosts.lua's records want. */
const HOST = 'd0000.bench.example';
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

export interface AbBench {
  session: Session;
  dir: string;
  bare: Started;
}

/** Links 0 … SMALL-1 plain, SMALL … 2·SMALL-1 each with a test of two variants. */
async function seed(databaseUrl: string): Promise<void> {
  const { workspaceId } = await prepareStore(databaseUrl, 1);
  const store = await openStore(databaseUrl, { prepare: true });
  try {
    const links: NewLink[] = [];
    for (let i = 0; i < 2 * SMALL; i++) {
      const url = `https://example.com/ab/${i}`;
      const tested = i >= SMALL;
      links.push({
        code: codeOf(i),
        domainId: 0,
        workspaceId,
        groupId: null,
        longUrl: url,
        normalizedUrl: url,
        urlHash: urlHash(url),
        title: '',
        guards: tested
          ? {
              test: {
                variants: [
                  { url: `https://a.example/${i}`, weight: 50 },
                  { url: `https://b.example/${i}`, weight: 50 },
                ],
                endsAt: null,
                startedAt: new Date(),
              },
            }
          : {},
      });
    }
    await store.insertLinksBulk(links);
  } finally {
    await store.close();
  }
}

function records(path: string, from: number): string {
  const lines = [...sampleIndexes(SMALL, HOT_SET)].map((i) => `${codeOf(from + i)} ${HOST}\n`);
  writeFileSync(path, lines.join(''));
  return path;
}

export async function abPhase({ session, dir, bare }: AbBench): Promise<string[]> {
  const databaseUrl = `sqlite:${join(dir, 'ab.db')}`;
  await timed(`seed: ${SMALL} plain links and ${SMALL} with an A/B test`, () => seed(databaseUrl));
  const plain = records(join(dir, 'ab-plain.txt'), 0);
  const tested = records(join(dir, 'ab-tested.txt'), SMALL);
  const load = { threads: 1, connections: 32 };
  const measure = (target: string, servers: Started[], codes: string, isBare = false) =>
    session.measure({
      target,
      bare: isBare,
      servers,
      script: 'redirect-hosts.lua',
      env: () => ({ BENCH_CODES: codes, BENCH_UA: BROWSER_UA }),
      load,
    });
  const snip = await startSnip(databaseUrl, `/${codeOf(0)}`, 302, { BASE_URL: `http://${HOST}` });
  try {
    await measure('bare node:http 302, wrk -t1 -c32', [bare], plain, true);
    const without = await measure(
      `snip redirect, ${SMALL} links without a test, wrk -t1 -c32`,
      [snip],
      plain,
    );
    await measure('bare node:http 302, wrk -t1 -c32', [bare], tested, true);
    const withTest = await measure(
      `snip redirect, ${SMALL} links with an A/B test, wrk -t1 -c32`,
      [snip],
      tested,
    );
    const cpu = (run: Run) => run.cpuUsPerRequest ?? 0;
    return [
      `A/B tests: ${cpu(withTest).toFixed(1)} µs server CPU per request for links with a test ` +
        `(${withTest.cpuVsBare?.toFixed(2) ?? '?'}× bare), ${cpu(without).toFixed(1)} µs without ` +
        `(${without.cpuVsBare?.toFixed(2) ?? '?'}× bare): ${(cpu(withTest) / Math.max(0.01, cpu(without))).toFixed(2)}×`,
    ];
  } finally {
    await snip.stop();
  }
}
