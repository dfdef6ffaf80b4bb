import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import postgres from 'postgres';
import type { Store } from '../src/core/ports/store.ts';
import { newEvent, newSigningSecret } from '../src/core/webhook-events.ts';
import { onCleanup } from './processes.ts';

/**
 * What the webhook benchmarks share (bench/webhooks-phase.ts, bench/webhook-fleet.ts): a loopback
 * receiver answering 204 that records every delivery by its webhook-id (start, finish and, when
 * asked, which process sent it), the events queued straight into a store's outbox, and a
 * throwaway PostgreSQL database that needs no Redis.
 */

/** One request the receiver answered. */
export interface Delivery {
  /** performance.now() when its headers arrived and when its answer was sent. */
  start: number;
  end: number;
  /** The pid of the process whose socket sent it, when the receiver was told whom to look for. */
  sender: number | undefined;
}

export interface Receiver {
  url: string;
  /** Requests answered, and the distinct webhook-ids among them. */
  readonly requests: number;
  readonly distinct: number;
  /** Each webhook-id's requests in the order they arrived. */
  readonly byId: ReadonlyMap<string, readonly Delivery[]>;
  /** performance.now() of the first and the latest request. */
  readonly firstAt: number;
  readonly lastAt: number;
  /** Resolves true once `count` distinct ids were seen, false after `ms`. */
  waitFor(count: number, ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** How long to hold each answer (ms); none by default. */
  delayMs?: () => number;
  /** Processes that may be sending: each connection is traced to one of them through /proc. */
  senders?: () => readonly number[];
}

/**
 * A node:http server on 127.0.0.1 answering every request 204 (after `delayMs`, if given), reading
 * the body so keep-alive holds; requests without a webhook-id are answered 400 and not recorded.
 */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const byId = new Map<string, Delivery[]>();
  const senderOf = new WeakMap<Socket, number | undefined>();
  let requests = 0;
  let firstAt = 0;
  let lastAt = 0;
  let waiting: { count: number; resolve: (done: boolean) => void } | undefined;
  const answer = (res: ServerResponse, delivery: Delivery) => {
    res.writeHead(204).end();
    delivery.end = performance.now();
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const id = req.headers['webhook-id'];
    if (typeof id !== 'string') {
      res.writeHead(400).end();
      return;
    }
    const start = performance.now();
    if (requests++ === 0) firstAt = start;
    lastAt = start;
    const delivery: Delivery = { start, end: Number.NaN, sender: senderOf.get(req.socket) };
    const seen = byId.get(id);
    if (seen) seen.push(delivery);
    else byId.set(id, [delivery]);
    if (waiting && byId.size >= waiting.count) waiting.resolve(true);
    req.resume();
    req.once('end', () => {
      const delay = options.delayMs?.() ?? 0;
      if (delay > 0) setTimeout(() => answer(res, delivery), delay);
      else answer(res, delivery);
    });
  });
  server.keepAliveTimeout = 60_000;
  if (options.senders) {
    const senders = options.senders;
    server.on('connection', (socket: Socket) => {
      senderOf.set(socket, ownerOf(socket.remotePort ?? 0, senders()));
    });
  }
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    get requests() {
      return requests;
    },
    get distinct() {
      return byId.size;
    },
    byId,
    get firstAt() {
      return firstAt;
    },
    get lastAt() {
      return lastAt;
    },
    waitFor(count, ms) {
      if (byId.size >= count) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => done(false), ms);
        const done = (reached: boolean) => {
          clearTimeout(timer);
          waiting = undefined;
          resolve(reached);
        };
        waiting = { count, resolve: done };
      });
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * The process among `pids` owning the local end of a loopback connection from `port`: its inode in
 * /proc/net/tcp, then the pid whose file descriptors hold that socket. Undefined when not found.
 */
function ownerOf(port: number, pids: readonly number[]): number | undefined {
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let inode: string | undefined;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields[1]?.endsWith(local)) {
      inode = fields[9];
      break;
    }
  }
  if (inode === undefined) return undefined;
  const link = `socket:[${inode}]`;
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === link) return pid;
      }
    } catch {
      // gone, or a descriptor closed while read
    }
  }
  return undefined;
}

/** How the deliveries went: ids delivered more than once, and requests of one id open at once. */
export function tally(receiver: Receiver): { duplicates: number; overlaps: number } {
  let duplicates = 0;
  let overlaps = 0;
  for (const deliveries of receiver.byId.values()) {
    duplicates += deliveries.length - 1;
    for (let i = 1; i < deliveries.length; i++) {
      const start = (deliveries[i] as Delivery).start;
      // Still open (no answer yet: NaN) or answered after this one started.
      if (deliveries.slice(0, i).some((earlier) => !(earlier.end <= start))) overlaps++;
    }
  }
  return { duplicates, overlaps };
}

/** Requests per sender pid (undefined: not traced). */
export function shares(receiver: Receiver): Map<number | undefined, number> {
  const counts = new Map<number | undefined, number>();
  for (const deliveries of receiver.byId.values())
    for (const { sender } of deliveries) counts.set(sender, (counts.get(sender) ?? 0) + 1);
  return counts;
}

/** An endpoint of the workspace at the receiver's URL hearing link.clicked, made through the store. */
export async function addEndpoint(store: Store, workspaceId: number, url: string): Promise<number> {
  const endpoint = await store.createEndpoint({
    workspaceId,
    url,
    events: ['link.clicked'],
    description: 'bench receiver',
    secret: newSigningSecret(),
  });
  return endpoint.id;
}

/**
 * `count` link.clicked events of the workspace, with bodies shaped as the redirect's, written in one
 * transaction the way a click flush writes them (addClicks' notices: a hundred events a statement),
 * each with one delivery per endpoint hearing it.
 */
export async function queueClickEvents(store: Store, workspaceId: number, count: number): Promise<void> {
  const at = Date.now();
  const events = Array.from({ length: count }, (_, i) =>
    newEvent(
      workspaceId,
      'link.clicked',
      {
        link: {
          short_code: `b${String(i % 1_000_000).padStart(6, '0')}`,
          domain: '127.0.0.1',
          short_url: `http://127.0.0.1/b${i}`,
          long_url: `https://example.com/articles/${i}`,
        },
        click: {
          at: new Date(at).toISOString(),
          referrer: 'news.example.org',
          country: 'DE',
          device: 'desktop',
          os: 'Linux',
          browser: 'Chrome',
          language: 'de',
          source: null,
        },
      },
      at,
    ),
  );
  await store.addClicks([], { events: [], visitors: [], bots: [], notices: { events, stream: false } });
}

/** Polls the store until no delivery waits (true), or `ms` passed (false). */
export async function drained(store: Store, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while ((await store.pendingDeliveries()) > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

export interface Throwaway {
  name: string;
  databaseUrl: string;
  drop(): Promise<void>;
}

/**
 * A database of its own on the PostgreSQL server `adminUrl` names, dropped however the run ends;
 * undefined (and nothing made) when the server cannot be reached.
 */
export async function throwawayDatabase(adminUrl: string): Promise<Throwaway | undefined> {
  const name = `snip_bench_wh_${randomBytes(5).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin`SELECT 1`;
  } catch {
    await admin.end();
    return undefined;
  }
  const drop = onCleanup(async () => {
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      console.log(`clean-up: dropped database ${name}`);
    } finally {
      await admin.end();
    }
  });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (error) {
    await drop();
    throw error;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, databaseUrl: url.href, drop };
}
