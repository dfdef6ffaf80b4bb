import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../src/adapters/open-store.ts';
import type { NewLink } from '../src/core/entities.ts';
import { type Started, startSnip } from './processes.ts';
import type { Run } from './report.ts';
import { benchLink, codeOf, prepareStore, sampleIndexes } from './seed.ts';
import type { Session } from './session.ts';
import { timed } from './session.ts';
import { HOT_SET, SMALL } from './settings.ts';

/**
 * Domains (docs/api.md §12): the redirect's CPU per request with 10k links spread over 1,000 added
 * domains, beside 10k links on the default domain alone, each request naming its host; and a host
 * no domain has against an unknown code. One store, one server, the bare server under the same load.
 */

const DOMAINS = 1000;
/** Hosts of one width (19 characters), so the load script reads fixed records. */
const hostOf = (n: number) => `d${String(n).padStart(4, '0')}.bench.example`;
/** BASE_URL's host: the default domain's links are asked for under it. */
const DEFAULT_HOST = hostOf(0);
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

export interface DomainBench {
  session: Session;
  dir: string;
  bare: Started;
}

/** Link i of the spread set lives on domain 1 + i % 1000; its code is also a default-domain code. */
async function seed(databaseUrl: string): Promise<void> {
  const { workspaceId } = await prepareStore(databaseUrl, 1);
  const store = await openStore(databaseUrl, { prepare: true });
  try {
    for (let n = 1; n <= DOMAINS; n++) {
      const added = await store.addDomain({
        host: hostOf(n),
        workspaceId: null,
        shared: true,
        verificationToken: `bench-${n}`,
        verified: true,
      });
      if (added.kind !== 'added' || added.domain.id !== n)
        throw new Error(`bench domain ${n}: ${added.kind}`);
    }
    const links: NewLink[] = [];
    for (let i = 0; i < SMALL; i++) {
      for (const domainId of [0, 1 + (i % DOMAINS)]) {
        links.push(benchLink(i, workspaceId, `https://example.com/${domainId}/${i}`, { domainId }));
      }
    }
    await store.insertLinksBulk(links);
  } finally {
    await store.close();
  }
}

/** HOT_SET records of (code, host): on the added domains, or all on the default domain. */
function writeRecords(path: string, onDomains: boolean): string {
  const records = [...sampleIndexes(SMALL, HOT_SET)].map(
    (i) => `${codeOf(i)} ${onDomains ? hostOf(1 + (i % DOMAINS)) : DEFAULT_HOST}\n`,
  );
  writeFileSync(path, records.join(''));
  return path;
}

export async function domainsPhase({ session, dir, bare }: DomainBench): Promise<string[]> {
  const databaseUrl = `sqlite:${join(dir, 'domains.db')}`;
  await timed(`seed: ${DOMAINS} domains, ${SMALL} links on them and ${SMALL} on the default domain`, () =>
    seed(databaseUrl),
  );
  const oneDomain = writeRecords(join(dir, 'hosts-default.txt'), false);
  const spread = writeRecords(join(dir, 'hosts-1000.txt'), true);
  const load = { threads: 1, connections: 32 };
  const env =
    (codes: string, extra: Record<string, string> = {}) =>
    () => ({ BENCH_CODES: codes, BENCH_UA: BROWSER_UA, ...extra });
  const measure = (target: string, servers: Started[], codes: string, isBare = false, extra = {}) =>
    session.measure({
      target,
      bare: isBare,
      servers,
      script: 'redirect-hosts.lua',
      env: env(codes, extra),
      load,
    });
  const snip = await startSnip(databaseUrl, `/${codeOf(0)}`, 302, { BASE_URL: `http://${DEFAULT_HOST}` });
  try {
    await measure('bare node:http 302, Host per request, wrk -t1 -c32', [bare], oneDomain, true);
    const one = await measure(
      `snip redirect, ${SMALL} links on 1 domain, browser clicks, wrk -t1 -c32`,
      [snip],
      oneDomain,
    );
    await measure('bare node:http 302, Host per request, wrk -t1 -c32', [bare], spread, true);
    const many = await measure(
      `snip redirect, ${SMALL} links over ${DOMAINS} domains, browser clicks, wrk -t1 -c32`,
      [snip],
      spread,
    );
    const unknownCode = await measure(
      'snip, unknown codes on the default domain (404/429)',
      [snip],
      oneDomain,
      false,
      {
        BENCH_CODES: writeFileOf(join(dir, 'unknown-codes.txt'), `zzzzzz0 ${DEFAULT_HOST}\n`),
      },
    );
    const unknownHost = await measure('snip, a host no domain has (404)', [snip], oneDomain, false, {
      BENCH_UNKNOWN_HOST: 'unknown.bench.examp',
    });
    const cpu = (run: Run) => run.cpuUsPerRequest ?? 0;
    return [
      `redirect over ${DOMAINS} domains: ${cpu(many).toFixed(1)} µs server CPU per request ` +
        `(${many.cpuVsBare?.toFixed(2) ?? '?'}× bare), beside ${cpu(one).toFixed(1)} µs on one domain ` +
        `(${one.cpuVsBare?.toFixed(2) ?? '?'}× bare): ${(cpu(many) / Math.max(0.01, cpu(one))).toFixed(2)}×`,
      `a host no domain has: ${cpu(unknownHost).toFixed(1)} µs per request, beside ${cpu(unknownCode).toFixed(1)} µs ` +
        'for an unknown code on the default domain',
    ];
  } finally {
    await snip.stop();
  }
}

function writeFileOf(path: string, text: string): string {
  writeFileSync(path, text);
  return path;
}
