import { randomBytes } from 'node:crypto';
import type { FirstSeen, VisitorMember, Visitors } from '../../core/ports/visitors.ts';

/** The visitors of one link or account: the first alone (most links see one a day), a set from two on. */
type Seen = string | Set<string>;

interface Day {
  secret: Buffer;
  links: Map<number, Seen>;
  accounts: Map<number, Seen>;
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
    return members.map(({ linkId, workspaceId, visitor }) => ({
      ofLink: addTo(links, linkId, visitor),
      ofWorkspace: addTo(accounts, workspaceId, visitor),
    }));
  }
}

function addTo(sets: Map<number, Seen>, id: number, visitor: string): boolean {
  const seen = sets.get(id);
  if (seen === undefined) {
    sets.set(id, visitor);
    return true;
  }
  if (typeof seen === 'string') {
    if (seen === visitor) return false;
    sets.set(id, new Set([seen, visitor]));
    return true;
  }
  if (seen.has(visitor)) return false;
  seen.add(visitor);
  return true;
}
