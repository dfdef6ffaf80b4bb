import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { otherCores, processTicks, type Started, sampleCpu, startSnip } from './processes.ts';
import { createScratch } from './scratch.ts';
import { prepareStore } from './seed.ts';
import { timed } from './session.ts';
import { MEASURE_S, PG_ADMIN_URL, REDIS_URL } from './settings.ts';

/**
 * Sales through the API (docs/api.md §20) at a fixed rate, on SQLite and on PostgreSQL + Redis: one
 * tracked link, CUSTOMERS browser clicks on it (each a click id), a lead per click id, then
 * POST /api/v1/track/sale at RATE/s for MEASURE_S seconds, each with its own invoice id and a customer
 * in turn. Open loop: requests leave on a fixed schedule over keep-alive connections, whatever the
 * answers, so a slow server shows as latency and a backlog rather than as a lower offered rate.
 */

const RATE = 1000;
const CUSTOMERS = 500;
const CONNECTIONS = 32;
const TICK_MS = 10;
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

interface Answer {
  status: number;
  body: string;
}

function client(base: string, key: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        `${base}${path}`,
        {
          method,
          agent,
          headers: {
            'x-api-key': key,
            ...(payload ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: text || String(res.headers.location ?? '') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return { send, close: () => agent.destroy() };
}

/** A tracked link, a click id per customer, and each customer's lead. */
async function prepare(snip: Started, key: string, target: string): Promise<string[]> {
  const { send, close } = client(snip.url, key);
  try {
    const made = await send('POST', '/api/v1/links', {
      url: `${target}/shop`,
      track_conversions: true,
    });
    if (made.status !== 201) throw new Error(`link: ${made.status} ${made.body}`);
    const code = String(JSON.parse(made.body).short_code);
    const ids: string[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const click = await send('GET', `/${code}`, undefined, { 'user-agent': BROWSER_UA });
      const id = /[?&]snip_id=([A-Za-z0-9_-]+)/.exec(click.body)?.[1];
      if (!id) throw new Error(`click: ${click.status} ${click.body}`);
      ids.push(id);
    }
    const customers: string[] = [];
    for (const [i, id] of ids.entries()) {
      const customer = `cus_${i}`;
      // The click ids are written in batches (CLICK_FLUSH_MS): the first leads may wait for one.
      for (let tries = 0; ; tries++) {
        const lead = await send('POST', '/api/v1/track/lead', {
          click_id: id,
          event_name: 'Sign up',
          customer_id: customer,
        });
        if (lead.status === 201 || lead.status === 200) break;
        if (lead.status !== 404 || tries > 100) throw new Error(`lead: ${lead.status} ${lead.body}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      customers.push(customer);
    }
    return customers;
  } finally {
    close();
  }
}

export interface SalesRun {
  store: string;
  offered: number;
  answered: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  cpuUsPerSale: number;
  /** CPU per sale of PostgreSQL's and Redis's processes (0 on SQLite). */
  supportUsPerSale: number;
  /** Cores kept busy by other work on the machine meanwhile: above ~0.2 the figures are floors. */
  otherCores: number;
  ok: number;
  unavailable: number;
  errors: number;
}

/** RATE sales a second for `seconds`, on the schedule; every answer waited for. */
async function drive(
  snip: Started,
  key: string,
  customers: string[],
  tag: string,
  seconds: number,
  support: number[],
) {
  const { send, close } = client(snip.url, key);
  const latencies: number[] = [];
  const counts = { ok: 0, unavailable: 0, errors: 0 };
  const pending: Promise<void>[] = [];
  const total = RATE * seconds;
  const pid = snip.child.pid as number;
  const cpuBefore = processTicks(pid);
  const ours = [pid, process.pid, ...support];
  const machineBefore = sampleCpu(ours);
  const supportBefore = sampleCpu(support).ours;
  const start = performance.now();
  let sent = 0;
  const one = (n: number) => {
    const body = {
      customer_id: customers[n % customers.length],
      amount: 100 + (n % 900),
      currency: n % 5 === 0 ? 'USD' : 'EUR',
      invoice_id: `${tag}-${n}`,
    };
    const at = performance.now();
    return send('POST', '/api/v1/track/sale', body).then(
      (answer) => {
        latencies.push(performance.now() - at);
        if (answer.status === 201 || answer.status === 200) counts.ok++;
        else if (answer.status === 503) counts.unavailable++;
        else {
          counts.errors++;
          if (counts.errors <= 3)
            console.log(`  sale answered ${answer.status}: ${answer.body.slice(0, 200)}`);
        }
      },
      () => {
        counts.errors++;
      },
    );
  };
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) * RATE) / 1000) + 1);
    while (sent < due) pending.push(one(sent++));
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  const offeredSeconds = (performance.now() - start) / 1000;
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  const cpuUs = (processTicks(pid) - cpuBefore) * 10_000;
  const supportUs = (sampleCpu(support).ours - supportBefore) * 10_000;
  const others = otherCores(machineBefore, sampleCpu(ours));
  close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    offered: total / offeredSeconds,
    answered: latencies.length,
    perSecond: latencies.length / elapsed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: latencies.at(-1) ?? 0,
    cpuUsPerSale: cpuUs / Math.max(1, latencies.length),
    supportUsPerSale: supportUs / Math.max(1, latencies.length),
    otherCores: others,
    ...counts,
  };
}

async function measure(
  name: string,
  snip: Started,
  key: string,
  tag: string,
  target: string,
  support: number[] = [],
): Promise<SalesRun> {
  const customers = await timed(`${name}: a tracked link, ${CUSTOMERS} clicks and leads`, () =>
    prepare(snip, key, target),
  );
  // A short warm-up on the same schedule, its invoices apart.
  await drive(snip, key, customers, `${tag}-warm`, 2, support);
  const run = await drive(snip, key, customers, tag, MEASURE_S, support);
  const result = { store: name, ...run };
  console.log(
    `  ${name}: ${run.perSecond.toFixed(0)} sales/s answered (offered ${run.offered.toFixed(0)}/s), ` +
      `p50 ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms, max ${run.maxMs.toFixed(1)} ms, ` +
      `${run.cpuUsPerSale.toFixed(0)} µs server CPU per sale (+${run.supportUsPerSale.toFixed(0)} µs database), ` +
      `${run.otherCores.toFixed(2)} other cores busy, ${run.ok} ok, ${run.unavailable} 503, ${run.errors} errors`,
  );
  return result;
}

/** `target`: where the link points (bench/target-server.ts), fetched as a new link's page is. */
export async function salesPhase(
  dir: string,
  target: string,
): Promise<{ runs: SalesRun[]; notes: string[] }> {
  const runs: SalesRun[] = [];
  const sqliteUrl = `sqlite:${join(dir, 'sales.db')}`;
  const { apiKeys } = await prepareStore(sqliteUrl, 1);
  const key = apiKeys[0] as string;
  const env = { CLICK_FLUSH_MS: '50' };
  const sqlite = await startSnip(sqliteUrl, '/healthz', 200, env);
  try {
    runs.push(await measure('sqlite', sqlite, key, 'sq', target));
  } finally {
    await sqlite.stop();
  }
  const scratch = await createScratch(PG_ADMIN_URL, REDIS_URL);
  try {
    const pgKey = (await prepareStore(scratch.databaseUrl, 1)).apiKeys[0] as string;
    const pg = await startSnip(scratch.databaseUrl, '/healthz', 200, {
      ...env,
      REDIS_URL: scratch.redisUrl,
      REDIS_PREFIX: scratch.redisPrefix,
    });
    try {
      runs.push(await measure('pg+redis', pg, pgKey, 'pg', target, await scratch.pids()));
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await pg.stop();
    }
  } finally {
    await scratch.drop();
  }
  const notes = runs.map(
    (run) =>
      `sales (${run.store}): ${run.perSecond.toFixed(0)}/s of ${RATE}/s offered, p50 ${run.p50Ms.toFixed(2)} ms, ` +
      `p99 ${run.p99Ms.toFixed(2)} ms, ${run.cpuUsPerSale.toFixed(0)} µs server CPU per sale ` +
      `(+${run.supportUsPerSale.toFixed(0)} µs database), ${run.otherCores.toFixed(2)} other cores busy, ` +
      `${run.errors} errors, ${run.unavailable} 503`,
  );
  return { runs, notes };
}
