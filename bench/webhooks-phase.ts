import { join } from 'node:path';
import { openStore } from '../src/adapters/open-store.ts';
import type { Store } from '../src/core/ports/store.ts';
import {
  HUMAN_REDIRECTS,
  metricOf,
  processTicks,
  type Started,
  startSnip,
  threadTicks,
} from './processes.ts';
import { median, type Run } from './report.ts';
import { codeOf, prepareStore, removeDatabase, seedLinks } from './seed.ts';
import { type Session, timed } from './session.ts';
import { PG_ADMIN_URL, SMALL, WEBHOOK_EVENTS, WEBHOOK_ROUNDS } from './settings.ts';
import { type FleetFigures, webhookFleet } from './webhook-fleet.ts';
import {
  type DeliveryFigures,
  deliveryLine,
  type Kind,
  type RedirectFigures,
  redirectNotes,
} from './webhook-notes.ts';
import {
  addEndpoint,
  drained,
  queueClickEvents,
  startReceiver,
  tally,
  throwawayDatabase,
} from './webhook-receiver.ts';

/**
 * Webhooks (SPEC §14: deliveries/s to a loopback receiver, and the redirect's CPU with an endpoint
 * subscribed to link.clicked). First BENCH_WEBHOOK_EVENTS events queued at once into the outbox of
 * a store with one endpoint, on SQLite and on PostgreSQL (a throwaway database), and one Snip
 * server delivering them to a node:http receiver answering 204; then the hot redirect with browser
 * clicks against two SQLite servers with the same 10k links, one with an endpoint hearing
 * link.clicked, in rounds paired with the bare server under the same load; then several instances
 * on one PostgreSQL (bench/webhook-fleet.ts).
 */

const TICK_US = 10_000;
/** The clicks left when wrk stops are written (and their events made) within CLICK_FLUSH_MS, 1 s. */
const FLUSH_WAIT_MS = 1500;
const DRAIN_MS = 120_000;
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

export interface WebhookBench {
  session: Session;
  dir: string;
  bare: Started;
  /** HOT_SET codes out of the first SMALL links (redirect.lua's BENCH_CODES). */
  hotSmall: string;
}

export interface WebhookFigures {
  deliveries: DeliveryFigures[];
  redirect: RedirectFigures;
  fleet?: FleetFigures;
}

export interface WebhookResults {
  figures: WebhookFigures;
  notes: string[];
}

/** One server delivering `WEBHOOK_EVENTS` events queued at once for one endpoint. */
async function deliveryRun(store: 'sqlite' | 'postgres', databaseUrl: string): Promise<DeliveryFigures> {
  const receiver = await startReceiver();
  const { workspaceId } = await prepareStore(databaseUrl, 0);
  const db = await openStore(databaseUrl, { prepare: false });
  let snip: Started | undefined;
  try {
    await addEndpoint(db, workspaceId, receiver.url);
    snip = await startSnip(databaseUrl, '/healthz', 200);
    const pid = snip.child.pid as number;
    const ticks = processTicks(pid);
    const mainTicks = threadTicks(pid);
    const started = performance.now();
    await queueClickEvents(db, workspaceId, WEBHOOK_EVENTS);
    const committed = performance.now();
    await receiver.waitFor(WEBHOOK_EVENTS, Math.max(DRAIN_MS, WEBHOOK_EVENTS * 10));
    await drained(db, DRAIN_MS);
    const cpu = processTicks(pid) - ticks;
    const main = threadTicks(pid) - mainTicks;
    const perDelivery = (n: number) => round1((n * TICK_US) / Math.max(1, receiver.requests));
    const seconds = (receiver.lastAt - committed) / 1000;
    const figures: DeliveryFigures = {
      store,
      events: WEBHOOK_EVENTS,
      delivered: receiver.distinct,
      duplicates: tally(receiver).duplicates,
      queueSeconds: round2((committed - started) / 1000),
      seconds: round2(seconds),
      deliveriesPerSecond: Math.round(receiver.distinct / Math.max(0.001, seconds)),
      cpuUsPerDelivery: perDelivery(cpu),
      mainUsPerDelivery: perDelivery(main),
      otherUsPerDelivery: perDelivery(cpu - main),
    };
    console.log(deliveryLine(figures));
    return figures;
  } finally {
    await snip?.stop();
    await db.close();
    await receiver.close();
  }
}

/** Two SQLite stores with the same links, one with an endpoint hearing link.clicked at `url`. */
async function seedPair(dir: string, url: string): Promise<Record<'none' | 'hook', string>> {
  const urls = {
    none: `sqlite:${join(dir, 'webhooks-none.db')}`,
    hook: `sqlite:${join(dir, 'webhooks-hook.db')}`,
  };
  for (const [kind, databaseUrl] of Object.entries(urls)) {
    const { workspaceId } = await prepareStore(databaseUrl, 0);
    await seedLinks(databaseUrl, workspaceId, 0, SMALL);
    if (kind !== 'hook') continue;
    const store = await openStore(databaseUrl, { prepare: false });
    await addEndpoint(store, workspaceId, url).finally(() => store.close());
  }
  return urls;
}

async function redirectRuns({ session, dir, bare, hotSmall }: WebhookBench): Promise<RedirectFigures> {
  const receiver = await startReceiver();
  const urls = await timed(`seed: ${SMALL} links twice, an endpoint hearing link.clicked on one`, () =>
    seedPair(dir, receiver.url),
  );
  const servers = await Promise.all([
    startSnip(urls.none, `/${codeOf(0)}`, 302),
    startSnip(urls.hook, `/${codeOf(0)}`, 302),
  ]);
  const [none, hook] = servers as [Started, Started];
  const hookStore: Store = await openStore(urls.hook, { prepare: false });
  const runs: Record<Kind, Run[]> = { bare: [], none: [], hook: [] };
  const allIn: Record<'none' | 'hook', number[]> = { none: [], hook: [] };
  const drainSeconds: number[] = [];
  let clicks = 0;
  let pendingAtEnd = 0;
  try {
    const measure = async (kind: Kind) => {
      const server = kind === 'bare' ? bare : kind === 'none' ? none : hook;
      const pid = server.child.pid as number;
      const before = kind === 'bare' ? 0 : await metricOf(server.url, HUMAN_REDIRECTS);
      const ticks = processTicks(pid);
      const run = await session.measure({
        target: {
          bare: 'bare node:http 302, wrk -t1 -c32',
          none: 'snip redirect, browser clicks, no endpoint, -t1 -c32',
          hook: 'snip redirect, clicks heard by an endpoint, -t1 -c32',
        }[kind],
        bare: kind === 'bare',
        servers: [server],
        script: 'redirect.lua',
        env: () => ({ BENCH_CODES: hotSmall, BENCH_UA: BROWSER_UA }),
        load: { threads: 1, connections: 32 },
      });
      runs[kind].push(run);
      if (kind === 'bare') return;
      await new Promise((resolve) => setTimeout(resolve, FLUSH_WAIT_MS));
      if (kind === 'hook') {
        const start = performance.now();
        await drained(hookStore, DRAIN_MS);
        drainSeconds.push(round1((performance.now() - start) / 1000));
      }
      const answered = (await metricOf(server.url, HUMAN_REDIRECTS)) - before;
      if (kind === 'hook') clicks += answered;
      allIn[kind].push(round1(((processTicks(pid) - ticks) * TICK_US) / Math.max(1, answered)));
    };
    // Rounds of a bare run then both servers' runs, in turns, as in the blocklist phase.
    for (let round = 0; round < WEBHOOK_ROUNDS; round++) {
      await measure('bare');
      for (const kind of round % 2 === 0 ? (['none', 'hook'] as const) : (['hook', 'none'] as const))
        await measure(kind);
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    pendingAtEnd = await hookStore.pendingDeliveries();
    await hookStore.close();
    await receiver.close();
    for (const url of Object.values(urls)) removeDatabase(url.slice('sqlite:'.length));
  }
  const us = (kind: Kind) => runs[kind].map((run) => run.cpuUsPerRequest ?? 0);
  const mainUs = (kind: Kind) => runs[kind].map((run) => run.mainUsPerRequest ?? 0);
  const [mainNone, endpointMainUs] = [
    median(mainUs('none')),
    median(mainUs('hook')) - median(mainUs('none')),
  ];
  return {
    links: SMALL,
    rounds: WEBHOOK_ROUNDS,
    cpuUsPerRequest: { bare: us('bare'), none: us('none'), hook: us('hook') },
    endpointUs: round2(median(us('hook')) - median(us('none'))),
    mainUsPerRequest: { none: mainUs('none'), hook: mainUs('hook') },
    endpointMainUs: round2(endpointMainUs),
    endpointMainShare: round2(endpointMainUs / Math.max(0.01, mainNone)),
    allInUsPerClick: allIn,
    drainSeconds,
    humanClicks: clicks,
    delivered: receiver.distinct,
    duplicates: tally(receiver).duplicates,
    pendingAtEnd,
    withoutEvent: Math.max(0, clicks - receiver.distinct - pendingAtEnd),
  };
}

export async function webhooksPhase(bench: WebhookBench): Promise<WebhookResults> {
  const notes: string[] = [];
  const deliveries = [await deliveryRun('sqlite', `sqlite:${join(bench.dir, 'webhooks-deliveries.db')}`)];
  removeDatabase(join(bench.dir, 'webhooks-deliveries.db'));
  const failed = (what: string) => (error: unknown) => {
    notes.push(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  };
  const pg = await throwawayDatabase(PG_ADMIN_URL);
  if (pg) {
    const run = await deliveryRun('postgres', pg.databaseUrl)
      .catch(failed('webhook deliveries on PostgreSQL'))
      .finally(() => pg.drop());
    if (run) deliveries.push(run);
  } else notes.push(`webhooks on PostgreSQL skipped: ${PG_ADMIN_URL} not reachable`);
  const redirect = await redirectRuns(bench);
  const fleet = pg ? await webhookFleet(PG_ADMIN_URL).catch(failed('the webhook fleet')) : undefined;
  if (fleet) console.log(fleet.lines.join('\n'));
  const figures = { deliveries, redirect, ...(fleet ? { fleet: fleet.figures } : {}) };
  notes.push(...deliveries.map(deliveryLine), ...redirectNotes(redirect), ...(fleet?.lines ?? []));
  return { figures, notes };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;
