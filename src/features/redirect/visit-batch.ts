import { createHmac } from 'node:crypto';
import type { ClickEvent, NewVisitors } from '../../core/analytics.ts';
import { DAY_MS, dayText } from '../../core/days.ts';
import type { CountryLookup } from '../../core/ports/geo.ts';
import type { VisitorMember, Visitors } from '../../core/ports/visitors.ts';
import { clickFacts, type RawVisit } from './visit-facts.ts';

/** Visits made between two turns of the event loop. */
const YIELD_EVERY = 1024;

export interface MadeVisits {
  events: ClickEvent[];
  visitors: NewVisitors[];
}

export interface VisitBatchOptions {
  visitors: Visitors;
  countries: CountryLookup;
}

/** The UTC day of a time, the last answer remembered (a flush's visits share one day or two). */
const dayOf = (() => {
  let start = Number.NaN;
  let text = '';
  return (ms: number) => {
    const dayStart = ms - (ms % DAY_MS);
    if (dayStart !== start) {
      start = dayStart;
      text = dayText(dayStart / DAY_MS);
    }
    return text;
  };
})();

/**
 * Turns the raw visits of one flush into stored events and first sightings (docs/api.md §9.2):
 * each visitor id is HMAC-SHA256(the day's secret, address + "\n" + user agent), cut to 8 bytes;
 * the day's shared sets say which visitors are new to each link and account. After this, nothing
 * of the address or the user agent is left but the id and the families.
 */
export function visitBatchMaker(options: VisitBatchOptions) {
  return async function make(raws: readonly RawVisit[]): Promise<MadeVisits> {
    const byDay = new Map<string, RawVisit[]>();
    for (const raw of raws) {
      const day = dayOf(raw.at);
      const list = byDay.get(day);
      if (list) list.push(raw);
      else byDay.set(day, [raw]);
    }
    const events: ClickEvent[] = [];
    const visitors: NewVisitors[] = [];
    for (const [day, list] of byDay) {
      const secret = await options.visitors.secretOf(day);
      // One HMAC per visitor of the batch, not per click.
      const ids = new Map<string, string>();
      const members = new Map<string, VisitorMember>();
      for (const [i, raw] of list.entries()) {
        // A second of clicks can be tens of thousands: let the redirects between them run.
        if (i > 0 && i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
        const who = `${raw.address}\n${raw.userAgent ?? ''}`;
        let visitor = ids.get(who);
        if (visitor === undefined) {
          visitor = createHmac('sha256', secret).update(who).digest('hex').slice(0, 16);
          ids.set(who, visitor);
        }
        events.push({ ...clickFacts(raw, options.countries), visitor });
        const member = `${raw.linkId}:${visitor}`;
        if (!members.has(member))
          members.set(member, { linkId: raw.linkId, accountId: raw.accountId, visitor });
      }
      const list2 = [...members.values()];
      const seen = await options.visitors.add(day, list2);
      const perLink = new Map<number, NewVisitors>();
      list2.forEach((member, i) => {
        const first = seen[i];
        if (!first || (!first.ofLink && !first.ofAccount)) return;
        let entry = perLink.get(member.linkId);
        if (!entry) {
          entry = { linkId: member.linkId, accountId: member.accountId, day, ofLink: 0, ofAccount: 0 };
          perLink.set(member.linkId, entry);
        }
        if (first.ofLink) entry.ofLink++;
        if (first.ofAccount) entry.ofAccount++;
      });
      visitors.push(...perLink.values());
    }
    return { events, visitors };
  };
}

export type VisitBatchMaker = ReturnType<typeof visitBatchMaker>;
