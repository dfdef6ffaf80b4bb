import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import type { BotKindCount, ClickEvent, NewVisitors } from '../../../src/core/analytics/model.ts';
import type { ClickCount } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { clickEvent } from '../../fixtures/click-event.ts';
import { startTestApp, type TestApp, type TestAppOptions } from '../../helper.ts';

/**
 * Visits written through the store's real write path (`addClicks` with a VisitBatch, as the redirect's
 * flush does), and a test app on either store: SQLite always, PostgreSQL with TEST_DATABASE_URL.
 */

/** The members of a stats answer, in their order (docs/api.md §9.4). */
export const ANSWER_KEYS = [
  'from',
  'to',
  'interval',
  'totals',
  'series',
  'referrers',
  'countries',
  'devices',
  'os',
  'browsers',
  'languages',
  'sources',
  'bots',
];

export interface LinkIds {
  code: string;
  id: number;
  accountId: number;
}

/** One human click; what is left out is a plain desktop visit with no referrer. */
export type Visit = Partial<Omit<ClickEvent, 'linkId' | 'accountId'>> & { at: number };

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function linkIds(store: Store, code: string): Promise<LinkIds> {
  const link = await store.findLinkByCode(code);
  assert.ok(link, `no link ${code}`);
  return { code, id: link.id, accountId: link.accountId };
}

/** Writes visits as the redirect would, remembering whom each UTC day has seen, per link and account. */
export class VisitSeeder {
  readonly #seen = new Set<string>();
  /** Visits without a named visitor are each a new person. */
  #people = 0;
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  /** A visitor id (16 hex digits) from a name, so a test can say "the same person". */
  static visitor(name: string): string {
    return Buffer.from(name.padEnd(8, '.').slice(0, 8)).toString('hex');
  }

  async visits(link: LinkIds, visits: readonly Visit[], bots: Record<string, number> = {}, botDay?: number) {
    const counts = new Map<string, ClickCount>();
    const countOf = (ofDay: string) => {
      let count = counts.get(ofDay);
      if (!count) {
        count = { linkId: link.id, day: ofDay, clicks: 0, botHits: 0 };
        counts.set(ofDay, count);
      }
      return count;
    };
    const fresh = new Map<string, NewVisitors>();
    const events: ClickEvent[] = visits.map((visit) => {
      const event = clickEvent(link, visit.at, (++this.#people).toString(16).padStart(16, '0'), visit);
      const ofDay = day(event.at);
      countOf(ofDay).clicks += 1;
      let added = fresh.get(ofDay);
      if (!added) {
        added = { linkId: link.id, accountId: link.accountId, day: ofDay, ofLink: 0, ofAccount: 0 };
        fresh.set(ofDay, added);
      }
      if (this.#first(`link:${link.id}:${ofDay}:${event.visitor}`)) added.ofLink += 1;
      if (this.#first(`account:${link.accountId}:${ofDay}:${event.visitor}`)) added.ofAccount += 1;
      return event;
    });
    const botKinds: BotKindCount[] = [];
    for (const [kind, hits] of Object.entries(bots)) {
      const ofDay = day(botDay ?? visits[0]?.at ?? Date.now());
      countOf(ofDay).botHits += hits;
      botKinds.push({ linkId: link.id, day: ofDay, kind, hits });
    }
    await this.#store.addClicks([...counts.values()], {
      events,
      visitors: [...fresh.values()],
      bots: botKinds,
    });
  }

  #first(key: string): boolean {
    if (this.#seen.has(key)) return false;
    this.#seen.add(key);
    return true;
  }
}

export interface StoreKind {
  name: string;
  skip: string | false;
  start(options: TestAppOptions): Promise<TestApp>;
}

const databaseUrl = process.env.TEST_DATABASE_URL;

/** SQLite always; PostgreSQL in a database of its own, dropped on close, when TEST_DATABASE_URL is set. */
export const STORES: StoreKind[] = [
  { name: 'SQLite', skip: false, start: (options) => startTestApp(options) },
  {
    name: 'PostgreSQL',
    skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set',
    async start(options) {
      const name = `snip_stats_${randomBytes(5).toString('hex')}`;
      const admin = postgres(databaseUrl as string, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      const url = new URL(databaseUrl as string);
      url.pathname = `/${name}`;
      const drop = async () => {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      };
      try {
        const t = await startTestApp({ ...options, env: { ...options.env, DATABASE_URL: url.href } });
        return {
          ...t,
          async close() {
            await t.close();
            await drop();
          },
        };
      } catch (error) {
        await drop();
        throw error;
      }
    },
  },
];
