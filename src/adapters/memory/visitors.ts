import { randomBytes } from 'node:crypto';
import type { FirstSeen, VisitorMember, Visitors } from '../../core/ports/visitors.ts';

interface Day {
  secret: Buffer;
  links: Map<number, Set<string>>;
  accounts: Map<number, Set<string>>;
}

/** Days kept: today, and yesterday for clicks of its last second flushed after midnight. */
const DAYS_KEPT = 2;

/**
 * The visitors of a single instance (docs/adr/018): exact sets of visitor ids per link and account,
 * held in memory for the day and yesterday, then dropped with the day's secret.
 */
export class MemoryVisitors implements Visitors {
  readonly #days = new Map<string, Day>();

  #day(day: string): Day {
    let entry = this.#days.get(day);
    if (!entry) {
      entry = { secret: randomBytes(32), links: new Map(), accounts: new Map() };
      this.#days.set(day, entry);
      // Days are YYYY-MM-DD: they sort as text; the oldest go first.
      for (const old of [...this.#days.keys()].sort().slice(0, -DAYS_KEPT)) this.#days.delete(old);
    }
    return entry;
  }

  async secretOf(day: string): Promise<Buffer> {
    return this.#day(day).secret;
  }

  async add(day: string, members: readonly VisitorMember[]): Promise<FirstSeen[]> {
    const { links, accounts } = this.#day(day);
    return members.map(({ linkId, accountId, visitor }) => ({
      ofLink: addTo(links, linkId, visitor),
      ofAccount: addTo(accounts, accountId, visitor),
    }));
  }
}

function addTo(sets: Map<number, Set<string>>, id: number, visitor: string): boolean {
  let set = sets.get(id);
  if (!set) {
    set = new Set();
    sets.set(id, set);
  }
  if (set.has(visitor)) return false;
  set.add(visitor);
  return true;
}
