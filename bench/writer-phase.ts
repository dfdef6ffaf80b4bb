import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { threadCpuUsage } from 'node:process';
import { checkedBatch, isEmpty } from '../src/adapters/sql/flush-batch.ts';
import { openWriterConnection } from '../src/adapters/sqlite/click-writer.ts';
import { CLICK_LINKS_PER_WRITE } from '../src/adapters/sqlite/store.ts';
import { writeClicks } from '../src/adapters/sqlite/write-clicks.ts';
import { EventTable } from '../src/core/analytics/event-table.ts';
import type { NewVisitors } from '../src/core/analytics/model.ts';
import { DAY_MS, dayText, HOUR_MS } from '../src/core/days.ts';
import { ClickBuffer } from '../src/features/analytics/collect/click-buffer.ts';
import type { MadeVisits } from '../src/features/analytics/collect/visit-events.ts';
import type { RawVisit, VisitLog } from '../src/features/analytics/collect/visit-log.ts';
import { median, writeResults } from './report.ts';
import { prepareStore, removeDatabase, seedLinks } from './seed.ts';
import { HOT_SET } from './settings.ts';

/**
 * `BENCH_ONLY=writer` (docs/adr/053): the SQLite click writer's own CPU per event written, with no
 * server and no wrk. Under wrk the long tail cannot show it: the writer is behind there and spends
 * whatever CPU the scheduler gives it, so its share per request is the machine's, not its cost.
 * Here the server's own ClickBuffer takes one second of 20,000 browser clicks at a time and flushes
 * it as a server on SQLite does (4,096 links' counts per transaction, events in parts of at most
 * 4,096 links), each store write going to the same writeClicks the writer's thread runs, on a
 * connection set up as that thread's, over a store of 100,000 links; `process.threadCpuUsage()`
 * around writeClicks alone:
 * - hot: the clicks drawn from a hot set of 4,096 links (about 5 clicks per link and flush);
 * - tail: drawn from all 100,000 (about 18,000 links per flush, nearly one click each).
 * The rounds alternate hot and tail, so a store growing under both treats them alike.
 */

const LINKS = 100_000;
const CLICKS_A_SECOND = 20_000;
const SECONDS_PER_ROUND = 3;
const ROUNDS = 5;

export interface WriterFigures {
  /** Median over the rounds of the writer's CPU per event written, µs. */
  hotUsPerEvent: number;
  tailUsPerEvent: number;
  rounds: { hot: number[]; tail: number[] };
  /** The longest flush transaction of all rounds, ms: how long it held the write lock. */
  longestTransaction: { hot: number; tail: number };
}

/** The events and first sightings of raw visits, as visit-events.ts makes them: every click a new visitor. */
async function madeOf(raws: VisitLog): Promise<MadeVisits> {
  const events = new EventTable(raws.length);
  const visitors = new Map<number, NewVisitors>();
  for (let i = 0; i < raws.length; i++) {
    const { linkId, workspaceId, at } = raws.visit(i);
    events.push({
      linkId,
      workspaceId,
      at,
      referrer: 'news.example.com',
      country: 'GB',
      device: 'desktop',
      os: 'Windows',
      browser: 'Chrome',
      language: 'en',
      source: 'link',
      visitor: randomBytes(8).toString('hex'),
    });
    const seen = visitors.get(linkId);
    if (seen) {
      seen.ofLink++;
      seen.ofWorkspace++;
    } else {
      const hour = Math.floor((at % DAY_MS) / HOUR_MS);
      visitors.set(linkId, {
        linkId,
        workspaceId,
        day: dayText(Math.floor(at / DAY_MS)),
        hour,
        ofLink: 1,
        ofWorkspace: 1,
      });
    }
  }
  return { events, visitors: [...visitors.values()] };
}

/** What a browser click leaves in the buffer besides its link and time (madeOf reads only those). */
const VISIT: Omit<RawVisit, 'linkId' | 'workspaceId' | 'at'> = {
  address: '203.0.113.7',
  userAgent: undefined,
  referer: undefined,
  acceptLanguage: undefined,
  trustedCountry: undefined,
  qr: false,
};

export async function writerPhase(dir: string): Promise<{ figures: WriterFigures; lines: string[] }> {
  const path = join(dir, 'writer.db');
  const databaseUrl = `sqlite:${path}`;
  removeDatabase(path);
  const { workspaceId } = await prepareStore(databaseUrl, 0);
  await seedLinks(databaseUrl, workspaceId, 0, LINKS);
  const conn = openWriterConnection(path);
  try {
    const ids = (conn.db.prepare('SELECT id FROM links ORDER BY id').all() as Array<{ id: number }>).map(
      (row) => Number(row.id),
    );
    const hot = ids.filter((_, i) => i % Math.floor(LINKS / HOT_SET) === 0).slice(0, HOT_SET);
    const rounds: WriterFigures['rounds'] = { hot: [], tail: [] };
    const longestTransaction = { hot: 0, tail: 0 };
    let spent = 0;
    let longest = 0;
    let written = 0;
    const buffer = new ClickBuffer(
      {
        clickLinksPerWrite: CLICK_LINKS_PER_WRITE,
        async addClicks(counts, visits) {
          const checked = checkedBatch(counts, visits);
          if (isEmpty(checked)) return;
          const before = threadCpuUsage();
          const t0 = performance.now();
          writeClicks(conn, checked);
          longest = Math.max(longest, performance.now() - t0);
          const used = threadCpuUsage(before);
          spent += used.user + used.system;
          written += checked.events.length;
        },
      },
      { intervalMs: 3_600_000, makeVisits: madeOf, onError: (error) => console.error(error) },
    );
    let at = Date.now();
    // Per event written over one round: SECONDS_PER_ROUND flushes of a second of clicks each.
    const round = async (from: readonly number[]) => {
      [spent, written, longest] = [0, 0, 0];
      for (let second = 0; second < SECONDS_PER_ROUND; second++) {
        for (let i = 0; i < CLICKS_A_SECOND; i++) {
          const linkId = from[Math.floor(Math.random() * from.length)] as number;
          at += 1000 / CLICKS_A_SECOND;
          buffer.record(linkId, 'human');
          buffer.visit({ ...VISIT, linkId, workspaceId, at: Math.floor(at) });
        }
        await buffer.flush();
      }
      return {
        usPerEvent: Number((spent / Math.max(1, written)).toFixed(1)),
        longestMs: Math.round(longest),
      };
    };
    // A first round of each warms the statements and the page cache; it is not counted.
    await round(hot);
    await round(ids);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [kind, from] of [
        ['hot', hot],
        ['tail', ids],
      ] as const) {
        const { usPerEvent, longestMs } = await round(from);
        rounds[kind].push(usPerEvent);
        longestTransaction[kind] = Math.max(longestTransaction[kind], longestMs);
      }
    }
    await buffer.close();
    const figures = {
      hotUsPerEvent: median(rounds.hot),
      tailUsPerEvent: median(rounds.tail),
      rounds,
      longestTransaction,
    };
    const line =
      `writer: CPU per event written, flushes of a second of ${CLICKS_A_SECOND.toLocaleString('en-US')} browser clicks ` +
      `to ${LINKS.toLocaleString('en-US')} links (median of ${ROUNDS} rounds): hot set ${figures.hotUsPerEvent} µs (${rounds.hot.join(', ')}), ` +
      `long tail ${figures.tailUsPerEvent} µs (${rounds.tail.join(', ')}), ` +
      `${(figures.tailUsPerEvent / Math.max(0.1, figures.hotUsPerEvent)).toFixed(2)}× the hot set; ` +
      `longest transaction ${longestTransaction.hot} ms hot, ${longestTransaction.tail} ms tail`;
    console.log(line);
    return { figures, lines: [line] };
  } finally {
    conn.close();
    removeDatabase(path);
  }
}

/** The writer phase alone (BENCH_ONLY=writer): its results in `resultsPath`. */
export async function writerOnly(dir: string, resultsPath: string): Promise<void> {
  console.log('writer phase');
  const { figures } = await writerPhase(dir);
  writeResults(resultsPath, { date: new Date().toISOString(), writer: figures, goals: [], notes: [] });
}
