import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../src/adapters/open-store.ts';
import type { LinkGuards, NewLink } from '../src/core/entities.ts';
import { type Started, startSnip } from './processes.ts';
import type { Run } from './report.ts';
import { benchLink, codeOf, prepareStore, sampleIndexes } from './seed.ts';
import type { Session } from './session.ts';
import { timed } from './session.ts';
import { HOT_SET, SMALL } from './settings.ts';

/**
 * A phase that weighs one feature of a link on the redirect: SMALL plain links (0…SMALL−1) and SMALL
 * links with the feature (SMALL…2·SMALL−1) in one store and one server, each clicked by browsers
 * after the bare server under the same load, so both lines are ratios of the same run.
 */

const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

export interface PairedBench {
  session: Session;
  dir: string;
  bare: Started;
}

export interface Pairing {
  /** The store file's and the code lists' name. */
  name: string;
  /** BASE_URL's host: 19 characters, as bench/lua/redirect-hosts.lua's fixed records want. */
  host: string;
  /** What the seed line says it made. */
  seeded: string;
  /** The guards of the i-th link with the feature. */
  guards: (i: number) => LinkGuards;
  /** How the plain and the featured line read. */
  targets: { plain: string; featured: string };
}

async function seed(databaseUrl: string, pairing: Pairing): Promise<void> {
  const { workspaceId } = await prepareStore(databaseUrl, 1);
  const store = await openStore(databaseUrl, { prepare: true });
  try {
    const links: NewLink[] = [];
    for (let i = 0; i < 2 * SMALL; i++) {
      const url = `https://example.com/${pairing.name}/${i}`;
      links.push(benchLink(i, workspaceId, url, { guards: i >= SMALL ? pairing.guards(i) : {} }));
    }
    await store.insertLinksBulk(links);
  } finally {
    await store.close();
  }
}

function records(path: string, from: number, host: string): string {
  const lines = [...sampleIndexes(SMALL, HOT_SET)].map((i) => `${codeOf(from + i)} ${host}\n`);
  writeFileSync(path, lines.join(''));
  return path;
}

/** The plain links' run and the featured links' run, each measured after the bare server's. */
export async function pairedLinks(
  { session, dir, bare }: PairedBench,
  pairing: Pairing,
): Promise<{ plain: Run; featured: Run }> {
  const databaseUrl = `sqlite:${join(dir, `${pairing.name}.db`)}`;
  await timed(`seed: ${pairing.seeded}`, () => seed(databaseUrl, pairing));
  const plainCodes = records(join(dir, `${pairing.name}-plain.txt`), 0, pairing.host);
  const featuredCodes = records(join(dir, `${pairing.name}-featured.txt`), SMALL, pairing.host);
  const measure = (target: string, servers: Started[], codes: string, isBare = false) =>
    session.measure({
      target,
      bare: isBare,
      servers,
      script: 'redirect-hosts.lua',
      env: () => ({ BENCH_CODES: codes, BENCH_UA: BROWSER_UA }),
      load: { threads: 1, connections: 32 },
    });
  const snip = await startSnip(databaseUrl, `/${codeOf(0)}`, 302, { BASE_URL: `http://${pairing.host}` });
  try {
    await measure('bare node:http 302, Host per request, wrk -t1 -c32', [bare], plainCodes, true);
    const plain = await measure(pairing.targets.plain, [snip], plainCodes);
    await measure('bare node:http 302, Host per request, wrk -t1 -c32', [bare], featuredCodes, true);
    const featured = await measure(pairing.targets.featured, [snip], featuredCodes);
    return { plain, featured };
  } finally {
    await snip.stop();
  }
}

/** "featured X µs (R× bare), plain Y µs (R× bare): Z×". */
export function pairedNote(
  label: string,
  runs: { plain: Run; featured: Run },
  words: [string, string],
): string {
  const cpu = (run: Run) => run.cpuUsPerRequest ?? 0;
  const { plain, featured } = runs;
  return (
    `${label}: ${words[0]} ${cpu(featured).toFixed(1)} µs server CPU (${featured.cpuVsBare?.toFixed(2) ?? '?'}× bare), ` +
    `${words[1]} ${cpu(plain).toFixed(1)} µs (${plain.cpuVsBare?.toFixed(2) ?? '?'}× bare): ` +
    `${(cpu(featured) / Math.max(0.01, cpu(plain))).toFixed(2)}×`
  );
}
