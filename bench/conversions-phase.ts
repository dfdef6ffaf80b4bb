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
 * Conversions (docs/api.md §20): the redirect's CPU per browser click of a tracked link (a click id
 * drawn, appended and buffered, then written in batches) beside an untracked link of the same store
 * and server, each as a ratio to the bare server in the same run. Links 0…SMALL−1 are untracked,
 * SMALL…2·SMALL−1 tracked.
 */

// 19 characters: bench/lua/redirect-hosts.lua reads fixed records (a code, a space, a host).
const HOST = 'cv000.bench.example';
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

export interface ConversionBench {
  session: Session;
  dir: string;
  bare: Started;
}

async function seed(databaseUrl: string): Promise<void> {
  const { workspaceId } = await prepareStore(databaseUrl, 1);
  const store = await openStore(databaseUrl, { prepare: true });
  try {
    const links: NewLink[] = [];
    for (let i = 0; i < 2 * SMALL; i++) {
      const url = `https://example.com/conv/${i}`;
      links.push({
        code: codeOf(i),
        domainId: 0,
        workspaceId,
        groupId: null,
        longUrl: url,
        normalizedUrl: url,
        urlHash: urlHash(url),
        title: '',
        guards: i >= SMALL ? { trackConversions: true } : {},
      });
    }
    await store.insertLinksBulk(links);
  } finally {
    await store.close();
  }
}

function writeRecords(path: string, offset: number): string {
  const records = [...sampleIndexes(SMALL, HOT_SET)].map((i) => `${codeOf(offset + i)} ${HOST}\n`);
  writeFileSync(path, records.join(''));
  return path;
}

export async function conversionsPhase({ session, dir, bare }: ConversionBench): Promise<string[]> {
  const databaseUrl = `sqlite:${join(dir, 'conversions.db')}`;
  await timed(`seed: ${SMALL} untracked and ${SMALL} tracked links`, () => seed(databaseUrl));
  const untracked = writeRecords(join(dir, 'conv-untracked.txt'), 0);
  const tracked = writeRecords(join(dir, 'conv-tracked.txt'), SMALL);
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
    await measure('bare node:http 302, Host per request, wrk -t1 -c32', [bare], untracked, true);
    const plain = await measure(
      'snip redirect, untracked links, browser clicks, wrk -t1 -c32',
      [snip],
      untracked,
    );
    await measure('bare node:http 302, Host per request, wrk -t1 -c32', [bare], tracked, true);
    const withIds = await measure(
      'snip redirect, tracked links (snip_id per click), browser clicks, wrk -t1 -c32',
      [snip],
      tracked,
    );
    const cpu = (run: Run) => run.cpuUsPerRequest ?? 0;
    return [
      `conversions: a tracked link's click ${cpu(withIds).toFixed(1)} µs server CPU ` +
        `(${withIds.cpuVsBare?.toFixed(2) ?? '?'}× bare), an untracked one ${cpu(plain).toFixed(1)} µs ` +
        `(${plain.cpuVsBare?.toFixed(2) ?? '?'}× bare): ${(cpu(withIds) / Math.max(0.01, cpu(plain))).toFixed(2)}×`,
    ];
  } finally {
    await snip.stop();
  }
}
