import { createHmac } from 'node:crypto';
import { EventTable } from '../../../core/analytics/event-table.ts';
import type { NewVisitors } from '../../../core/analytics/model.ts';
import { DAY_MS, dayText, HOUR_MS } from '../../../core/days.ts';
import type { CountryLookup } from '../../../core/ports/geo.ts';
import type { VisitorMember, Visitors } from '../../../core/ports/visitors.ts';
import { VisitFacts } from './visit-facts.ts';
import type { VisitLog } from './visit-log.ts';

/** Visits made between two turns of the event loop. */
const YIELD_EVERY = 1024;

export interface MadeVisits {
  events: EventTable;
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
  return async function make(raws: VisitLog): Promise<MadeVisits> {
    // Nearly always one day; two when a flush straddles midnight. No list of each day's visits is
    // built: each day's pass skips the others' (see EventTable on what growing lists cost).
    const days = new Set<string>();
    for (let i = 0; i < raws.length; i++) days.add(dayOf(raws.at(i)));
    const facts = new VisitFacts(raws, options.countries);
    const events = new EventTable(raws.length);
    const visitors: NewVisitors[] = [];
    for (const day of days) {
      const secret = await options.visitors.secretOf(day);
      // One HMAC per visitor (address and user agent) of the batch, not per click; each visitor
      // numbered in order of appearance, so a link's visitor is one number too.
      const ids = new Map<number, { id: string; n: number }>();
      const members = new Map<number, VisitorMember>();
      // The UTC hour of each member's first visit in the batch: where its first sighting counts.
      const firstHours = new Map<number, number>();
      for (let i = 0; i < raws.length; i++) {
        // A second of clicks can be tens of thousands: let the redirects between them run.
        if (i > 0 && i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
        if (days.size > 1 && dayOf(raws.at(i)) !== day) continue;
        const who = raws.address(i) * WHO_SPAN + raws.userAgent(i);
        let visitor = ids.get(who);
        if (visitor === undefined) {
          const text = `${raws.text(raws.address(i)) ?? ''}\n${raws.text(raws.userAgent(i)) ?? ''}`;
          const id = createHmac('sha256', secret).update(text).digest('hex').slice(0, 16);
          visitor = { id, n: ids.size };
          ids.set(who, visitor);
        }
        const linkId = raws.linkId(i);
        events.push(facts.event(i, visitor.id));
        const member = linkId * WHO_SPAN + visitor.n;
        if (!members.has(member)) {
          members.set(member, { linkId, workspaceId: raws.workspaceId(i), visitor: visitor.id });
          firstHours.set(member, Math.floor((raws.at(i) % DAY_MS) / HOUR_MS));
        }
      }
      const list2 = [...members.values()];
      const hours = [...firstHours.values()];
      const seen = await options.visitors.add(day, list2);
      // One entry per link and hour of first sighting (the hourly rollup counts them there).
      const perLink = new Map<number, NewVisitors>();
      list2.forEach((member, i) => {
        const first = seen[i];
        if (!first || (!first.ofLink && !first.ofWorkspace)) return;
        const hour = hours[i] as number;
        const key = member.linkId * 24 + hour;
        let entry = perLink.get(key);
        if (!entry) {
          const { linkId, workspaceId } = member;
          entry = { linkId, workspaceId, day, hour, ofLink: 0, ofWorkspace: 0 };
          perLink.set(key, entry);
        }
        if (first.ofLink) entry.ofLink++;
        if (first.ofWorkspace) entry.ofWorkspace++;
      });
      visitors.push(...perLink.values());
    }
    return { events, visitors };
  };
}

/**
 * Indexes of a log's strings, and visitors of a flush, stay below this (a log holds at most 100k
 * visits of 4 strings): an address and agent, or a link and visitor, make one exact number.
 */
const WHO_SPAN = 2 ** 21;

export type VisitBatchMaker = ReturnType<typeof visitBatchMaker>;
