import { createHash } from 'node:crypto';
import type { BotKindCount, ClickEvent, NewVisitors } from '../../../src/core/analytics/model.ts';
import type { ClickCount, Link } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { clickEvent } from '../../fixtures/click-event.ts';

/**
 * Visits written the way the redirect's flush writes them (`addClicks(counts, visits)`): the counts,
 * the events, each day's first sightings of visitors and bot hits by kind, all agreeing.
 */

export const DAY_MS = 86_400_000;

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
      accountId: account.id,
      groupId: null,
      longUrl: url,
      normalizedUrl: url,
      urlHash: createHash('sha256').update(url).digest('hex'),
      title,
    },
  ]);
  const link = await store.findLinkByCode(code);
  if (!link) throw new Error(`link ${code} not stored`);
  return link;
}

export interface Visit extends Partial<Omit<ClickEvent, 'linkId' | 'accountId' | 'at'>> {
  /** Days before today (UTC), and the hour of that day. */
  daysAgo: number;
  hour?: number;
}

export function startOfToday(now = Date.now()): number {
  return now - (now % DAY_MS);
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function seedVisits(
  store: Store,
  link: Link,
  visits: readonly Visit[],
  bots: ReadonlyArray<{ daysAgo: number; kind: string; hits: number }> = [],
): Promise<void> {
  const today = startOfToday();
  const events: ClickEvent[] = visits.map(({ daysAgo, hour = 0, ...facts }, i) =>
    clickEvent(link, today - daysAgo * DAY_MS + hour * 3_600_000, (i + 1).toString(16).padStart(16, '0'), {
      language: 'unknown',
      ...facts,
    }),
  );
  const counts = new Map<string, ClickCount>();
  const seen = new Map<string, Set<string>>();
  for (const event of events) {
    const day = dayOf(event.at);
    const count = counts.get(day) ?? { linkId: link.id, day, clicks: 0, botHits: 0 };
    count.clicks += 1;
    counts.set(day, count);
    seen.set(day, (seen.get(day) ?? new Set()).add(event.visitor));
  }
  const botKinds: BotKindCount[] = bots.map(({ daysAgo, kind, hits }) => {
    const day = dayOf(today - daysAgo * DAY_MS);
    const count = counts.get(day) ?? { linkId: link.id, day, clicks: 0, botHits: 0 };
    count.botHits += hits;
    counts.set(day, count);
    return { linkId: link.id, day, kind, hits };
  });
  const visitors: NewVisitors[] = [...seen].map(([day, ids]) => ({
    linkId: link.id,
    accountId: link.accountId,
    day,
    ofLink: ids.size,
    ofAccount: ids.size,
  }));
  await store.addClicks([...counts.values()], { events, visitors, bots: botKinds });
}
