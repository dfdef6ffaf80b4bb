import { fileURLToPath } from 'node:url';
import { openStore } from '../src/adapters/open-store.ts';
import { killAll, processTicks, runCleanups, type Started, startSnip } from './processes.ts';
import { prepareStore } from './seed.ts';
import { PG_ADMIN_URL } from './settings.ts';
import {
  addEndpoint,
  drained,
  queueClickEvents,
  shares,
  startReceiver,
  tally,
  throwawayDatabase,
} from './webhook-receiver.ts';

/**
 * `node bench/webhook-fleet.ts`: several Snip instances on one PostgreSQL (a throwaway database, no
 * Redis) dispatching from the same outbox (SPEC §14: any instance delivers, rows claimed with FOR
 * UPDATE SKIP LOCKED). 10,000 link.clicked events are queued at once for one endpoint whose
 * receiver holds each answer 0-20 ms at random and records every webhook-id with when its request
 * started and ended and which instance sent it (traced from the connection's port through /proc).
 * Checks that none is lost and that no webhook-id is ever in flight twice at once; prints how many
 * were delivered twice (at least once allows it; none expected) and each instance's share. Exits
 * 1 when one is lost or overlapped, 2 when PostgreSQL cannot be reached. BENCH_PG_URL as for
 * `npm run bench`.
 */

const INSTANCES = 3;
const EVENTS = 10_000;
const MAX_DELAY_MS = 20;
const WAIT_MS = 120_000;
const TICK_US = 10_000;

export interface FleetFigures {
  instances: number;
  events: number;
  delivered: number;
  lost: number;
  /** Requests beyond the first for one webhook-id. */
  deliveredTwice: number;
  /** Requests that began while another of the same webhook-id was still open. */
  overlaps: number;
  /** From the queue's commit to the last request's arrival. */
  seconds: number;
  deliveriesPerSecond: number;
  /** All instances' CPU time from the queue's commit until the outbox was empty, per delivery. */
  cpuUsPerDelivery: number;
  /** Requests each instance sent, in the order they were started; untraced ones apart. */
  perInstance: number[];
  untraced: number;
}

export interface FleetResults {
  figures: FleetFigures;
  lines: string[];
  /** Nothing lost, nothing overlapped. */
  ok: boolean;
}

/** The fleet run; undefined when PostgreSQL cannot be reached. */
export async function webhookFleet(adminUrl = PG_ADMIN_URL): Promise<FleetResults | undefined> {
  const db = await throwawayDatabase(adminUrl);
  if (!db) return undefined;
  const pids: number[] = [];
  const receiver = await startReceiver({
    delayMs: () => Math.random() * MAX_DELAY_MS,
    senders: () => pids,
  });
  const instances: Started[] = [];
  try {
    const { workspaceId } = await prepareStore(db.databaseUrl, 0);
    const store = await openStore(db.databaseUrl, { prepare: false });
    try {
      await addEndpoint(store, workspaceId, receiver.url);
      // One after another: a busy machine starting three at once has made start-ups time out.
      for (let i = 0; i < INSTANCES; i++) instances.push(await startSnip(db.databaseUrl, '/healthz', 200));
      pids.push(...instances.map((instance) => instance.child.pid as number));
      const ticks = () => pids.reduce((sum, pid) => sum + processTicks(pid), 0);
      await queueClickEvents(store, workspaceId, 1); // warms the store's statements, delivered too
      await receiver.waitFor(1, WAIT_MS);
      await drained(store, WAIT_MS);
      const before = ticks();
      await queueClickEvents(store, workspaceId, EVENTS);
      const committedAt = performance.now();
      await receiver.waitFor(EVENTS + 1, WAIT_MS);
      await drained(store, WAIT_MS);
      const cpuTicks = ticks() - before;
      const figures = figuresOf(receiver, committedAt, cpuTicks, pids);
      return { figures, lines: linesOf(figures, pids), ok: figures.lost === 0 && figures.overlaps === 0 };
    } finally {
      await store.close();
    }
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
    await receiver.close();
    await db.drop();
  }
}

function figuresOf(
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  committedAt: number,
  cpuTicks: number,
  pids: readonly number[],
): FleetFigures {
  const delivered = receiver.distinct - 1; // the warm-up event
  const { duplicates, overlaps } = tally(receiver);
  const counts = shares(receiver);
  const seconds = (receiver.lastAt - committedAt) / 1000;
  return {
    instances: pids.length,
    events: EVENTS,
    delivered,
    lost: EVENTS - delivered,
    deliveredTwice: duplicates,
    overlaps,
    seconds: Number(seconds.toFixed(2)),
    deliveriesPerSecond: Math.round(delivered / Math.max(0.001, seconds)),
    cpuUsPerDelivery: Number(((cpuTicks * TICK_US) / Math.max(1, receiver.requests)).toFixed(1)),
    perInstance: pids.map((pid) => counts.get(pid) ?? 0),
    untraced: counts.get(undefined) ?? 0,
  };
}

function linesOf(f: FleetFigures, pids: readonly number[]): string[] {
  const total = f.perInstance.reduce((sum, n) => sum + n, 0) + f.untraced;
  const share = (n: number) => `${n} (${((100 * n) / Math.max(1, total)).toFixed(0)}%)`;
  return [
    `webhook fleet: ${f.instances} instances on one PostgreSQL, ${f.events.toLocaleString('en-US')} events queued at once, ` +
      `receiver holding each answer 0-${MAX_DELAY_MS} ms`,
    `  delivered ${f.delivered.toLocaleString('en-US')} of ${f.events.toLocaleString('en-US')} (lost ${f.lost}) in ` +
      `${f.seconds.toFixed(2)} s: ${f.deliveriesPerSecond.toLocaleString('en-US')} deliveries/s, ` +
      `${f.cpuUsPerDelivery.toFixed(0)} µs of the instances' CPU per delivery`,
    `  delivered twice: ${f.deliveredTwice} (at least once allows it; 0 expected); ` +
      `one webhook-id in flight twice at once: ${f.overlaps} (must be 0)`,
    `  per instance: ${f.perInstance.map((n, i) => `#${i + 1} (pid ${pids[i]}) ${share(n)}`).join(', ')}` +
      (f.untraced > 0 ? `, not traced ${share(f.untraced)}` : ''),
  ];
}

async function main(): Promise<number> {
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAll();
      void runCleanups(20_000).finally(() => process.exit(130));
    });
  }
  const results = await webhookFleet();
  if (!results) {
    console.error(`PostgreSQL (${PG_ADMIN_URL}) is not reachable: start it or point BENCH_PG_URL at it`);
    return 2;
  }
  console.log(results.lines.join('\n'));
  console.log(results.ok ? 'ok: none lost, none overlapped' : 'FAILED: deliveries lost or overlapped');
  return results.ok ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    async (error: unknown) => {
      console.error(error);
      await runCleanups(20_000);
      process.exit(1);
    },
  );
}
