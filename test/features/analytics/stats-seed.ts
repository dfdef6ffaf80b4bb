import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { BotKindCount, ClickEvent, NewVisitors } from '../../../src/core/analytics/model.ts';
import type { ClickCount, Link } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { clickEvent } from '../../fixtures/click-event.ts';

/**
 * Visits written through the store's real write path, the way the redirect's flush writes them
 * (`addClicks(counts, visits)`): the counts, the events, each day's first sightings of visitors and
 * bot hits by kind, all agreeing. Two ways to say the visits: `VisitSeeder` takes each one's time and
 * remembers whom it has seen across calls; `seedVisits` takes days before today, each call afresh.
 * And a test app on either store: SQLite always, PostgreSQL with TEST_DATABASE_URL.
 */

export const DAY_MS = 86_400_000;

/** The members of a stats answer, in their order (docs/api.md §9.4). */
export const ANSWER_KEYS = [
  'from',
  'to',
  'interval',
  'timezone',
  'totals',
  'series',
  'referrers',
  'countries',
  'devices',
  'os',
  'browsers',
  'languages',
  'sources',
  'variants',
  'bots',
  'referrer_sources',
  'utm_sources',
  'utm_mediums',
  'utm_campaigns',
  'conversions',
];

export interface LinkIds {
  code: string;
  id: number;
  workspaceId: number;
}

export function startOfToday(now = Date.now()): number {
  return now - (now % DAY_MS);
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function linkIds(store: Store, code: string): Promise<LinkIds> {
  const link = await store.findLinkByCode(0, code);
  assert.ok(link, `no link ${code}`);
  return { code, id: link.id, workspaceId: link.workspaceId };
}

/** A link of the account with this email, stored as an import would (no inspection), read back. */
export async function givenLinkOf(
  store: Store,
  email: string,
  code: string,
  url = `https://example.com/${code}`,
  title = '',
): Promise<Link> {
  const account = await store.findAccountByEmail(email);
  if (!account) throw new Error(`no account ${email}`);
  await store.insertLinksBulk([
    {
      code,
      domainId: 0,
      workspaceId: account.workspace.id,
      groupId: null,
      longUrl: url,
      normalizedUrl: url,
      urlHash: createHash('sha256').update(url).digest('hex'),
      title,
    },
  ]);
  const link = await store.findLinkByCode(0, code);
  if (!link) throw new Error(`link ${code} not stored`);
  return link;
}

/** Tells whether a key is seen for the first time: true the first time it is asked about, false after. */
function firstSightings(): (key: string) => boolean {
  const seen = new Set<string>();
  return (key) => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

/** A bot's hits of one kind on one UTC day. */
interface BotHits {
  day: string;
  kind: string;
  hits: number;
}

/**
 * One flush of the link's visits: the count of each day, the visitors seen first that day (of the
 * link and of its account, as `firstSighting` tells), and the bots' hits.
 */
async function writeVisits(
  store: Store,
  link: { id: number; workspaceId: number },
  events: ClickEvent[],
  bots: readonly BotHits[],
  firstSighting: (key: string) => boolean,
): Promise<void> {
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
  for (const event of events) {
    const ofDay = dayOf(event.at);
    countOf(ofDay).clicks += 1;
    let added = fresh.get(ofDay);
    if (!added) {
      added = { linkId: link.id, workspaceId: link.workspaceId, day: ofDay, ofLink: 0, ofWorkspace: 0 };
      fresh.set(ofDay, added);
    }
    if (firstSighting(`link:${link.id}:${ofDay}:${event.visitor}`)) added.ofLink += 1;
    if (firstSighting(`account:${link.workspaceId}:${ofDay}:${event.visitor}`)) added.ofWorkspace += 1;
  }
  const botKinds: BotKindCount[] = bots.map(({ day, kind, hits }) => {
    countOf(day).botHits += hits;
    return { linkId: link.id, day, kind, hits };
  });
  await store.addClicks([...counts.values()], {
    events,
    visitors: [...fresh.values()],
    bots: botKinds,
  });
}

/** One human click; what is left out is a plain desktop visit with no referrer. */
export type Visit = Partial<Omit<ClickEvent, 'linkId' | 'workspaceId'>> & { at: number };

/** Writes visits as the redirect would, remembering whom each UTC day has seen, per link and account. */
export class VisitSeeder {
  readonly #first = firstSightings();
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
    const events: ClickEvent[] = visits.map((visit) =>
      clickEvent(link, visit.at, (++this.#people).toString(16).padStart(16, '0'), visit),
    );
    const ofDay = dayOf(botDay ?? visits[0]?.at ?? Date.now());
    const botHits = Object.entries(bots).map(([kind, hits]) => ({ day: ofDay, kind, hits }));
    await writeVisits(this.#store, link, events, botHits, this.#first);
  }
}

/** One human click, so many days before today (UTC) at that hour; by default in no known language. */
export interface DayVisit extends Partial<Omit<ClickEvent, 'linkId' | 'workspaceId' | 'at'>> {
  /** Days before today (UTC), and the hour of that day. */
  daysAgo: number;
  hour?: number;
}

/** Writes the visits in one flush; each call's visitors are new to the link and to its account. */
export async function seedVisits(
  store: Store,
  link: Link,
  visits: readonly DayVisit[],
  bots: ReadonlyArray<{ daysAgo: number; kind: string; hits: number }> = [],
): Promise<void> {
  const today = startOfToday();
  const events: ClickEvent[] = visits.map(({ daysAgo, hour = 0, ...facts }, i) =>
    clickEvent(link, today - daysAgo * DAY_MS + hour * 3_600_000, (i + 1).toString(16).padStart(16, '0'), {
      language: 'unknown',
      ...facts,
    }),
  );
  const botHits = bots.map(({ daysAgo, kind, hits }) => ({
    day: dayOf(today - daysAgo * DAY_MS),
    kind,
    hits,
  }));
  await writeVisits(store, link, events, botHits, firstSightings());
}

export { STORES, type StoreKind } from '../../fixtures/stores.ts';
