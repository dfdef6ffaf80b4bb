import type { EventTable } from '../../../core/analytics/event-table.ts';
import type { BotKindCount } from '../../../core/analytics/model.ts';
import type { VisitBatch } from '../../../core/analytics/visit-batch.ts';
import { DAY_MS, dayText } from '../../../core/days.ts';
import type { ClickCount } from '../../../core/entities.ts';
import type { ClickStore } from '../../../core/ports/store.ts';
import type { ClickNotices } from '../../../core/ports/webhook-store.ts';
import type { ClickKind } from '../../../http/click-kind.ts';
import type { MadeVisits } from './visit-events.ts';
import { type RawVisit, VisitLog } from './visit-log.ts';

/** Raw visits held at most while they cannot be turned into events (shared visitor sets down). */
const MAX_HELD_VISITS = 100_000;

export interface ClickBufferOptions {
  /** How often buffered counts are written; the redirect itself never waits on the store. */
  intervalMs: number;
  /** Links whose counts are written per transaction; default the store's clickLinksPerWrite, else 256. */
  chunkSize?: number;
  /**
   * Events written with one chunk of links, at most, and of how many links at most; default 65,536
   * events of 4,096 links. A part costs by the links it names (their daily rows, rewritten in every
   * part): a second of clicks on hot links goes in one part, clicks spread over many links in parts
   * small enough that one transaction never holds the write lock for long.
   */
  eventsPerWrite?: number;
  eventLinksPerWrite?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
  /** Makes stored events of raw visits (visit-events.ts); without it visits are not kept. */
  makeVisits?: (raws: VisitLog) => Promise<MadeVisits>;
  /** The link.clicked events of a part of the events, written in its transaction (docs/api.md §14). */
  notices?: (events: EventTable) => Promise<ClickNotices | undefined>;
}

interface PendingCount extends ClickCount {
  bots?: Map<string, number>;
}

/**
 * Counts clicks in memory and writes them in batches, with the visits of TRACKING=full (their
 * events, first sightings and bot kinds) in the first transaction of a flush. A failed write keeps
 * its counts and visits for the next flush, and close() flushes what is left, so no counted click
 * is lost on a graceful shutdown.
 */
export class ClickBuffer {
  readonly #store: Pick<ClickStore, 'addClicks' | 'clickLinksPerWrite'>;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  readonly #timer: NodeJS.Timeout;
  readonly #chunk: number;
  readonly #eventsPerWrite: number;
  readonly #eventLinksPerWrite: number;
  readonly #makeVisits: ClickBufferOptions['makeVisits'];
  readonly #notices: ClickBufferOptions['notices'];
  /** Counts by day ('' for TRACKING=off, no day) and link: no key is built per click. */
  #pending = new Map<string, Map<number, PendingCount>>();
  #raws = new VisitLog();
  /** Visits made but not yet written (their write failed): never made twice, so never counted twice. */
  #made: MadeVisits | undefined;
  /** Events of #made before this one are written already. */
  #madeFrom = 0;
  #writing: Promise<void> = Promise.resolve();
  /** Entries of the flush under way not yet written. */
  #writingLinks = 0;
  #day = '';
  #dayEnds = 0;
  flushed = 0;
  /** Raw visits given up because they could not be made into events for too long. */
  droppedVisits = 0;

  constructor(store: Pick<ClickStore, 'addClicks' | 'clickLinksPerWrite'>, options: ClickBufferOptions) {
    this.#store = store;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => {});
    this.#chunk = options.chunkSize ?? store.clickLinksPerWrite ?? 256;
    this.#eventsPerWrite = options.eventsPerWrite ?? 65_536;
    this.#eventLinksPerWrite = options.eventLinksPerWrite ?? 4096;
    this.#makeVisits = options.makeVisits;
    this.#notices = options.notices;
    this.#timer = setInterval(() => void this.flush(), options.intervalMs);
    this.#timer.unref();
  }

  /**
   * Counts one redirect. `history` false (TRACKING=off) adds to the link's totals only, no day;
   * `botKind` names the kind of a bot hit for the bots breakdown (TRACKING=full).
   */
  record(linkId: number, kind: ClickKind, history = true, botKind?: string): void {
    const count = this.#countOf(linkId, history ? this.#today() : null);
    if (kind === 'human') {
      count.clicks++;
    } else {
      count.botHits++;
      if (botKind !== undefined) {
        count.bots ??= new Map();
        count.bots.set(botKind, (count.bots.get(botKind) ?? 0) + 1);
      }
    }
  }

  /** Keeps a human click's details for the next flush (TRACKING=full); the click is counted by record(). */
  visit(raw: RawVisit): void {
    if (!this.#makeVisits) return;
    if (this.#raws.length >= MAX_HELD_VISITS) {
      this.droppedVisits++;
      return;
    }
    this.#raws.push(raw);
  }

  /** Writes what is buffered now; flushes never overlap. */
  flush(): Promise<void> {
    this.#writing = this.#writing.then(() => this.#write());
    return this.#writing;
  }

  /** Stops the timer and writes what is left, retrying a store that fails for a moment. */
  async close(attempts = 3): Promise<void> {
    clearInterval(this.#timer);
    for (let attempt = 0; attempt < attempts && this.#hasWork(); attempt++) await this.flush();
  }

  /** Links with clicks not written yet: buffered, or in a flush still under way. */
  get pendingLinks(): number {
    let links = this.#writingLinks;
    for (const counts of this.#pending.values()) links += counts.size;
    return links;
  }

  /** Raw visits and made events not written yet. */
  get pendingVisits(): number {
    return this.#raws.length + (this.#made?.events.length ?? 0) - this.#madeFrom;
  }

  #hasWork(): boolean {
    return this.#pending.size > 0 || this.pendingVisits > 0;
  }

  #countOf(linkId: number, day: string | null): PendingCount {
    let counts = this.#pending.get(day ?? '');
    if (!counts) {
      counts = new Map();
      this.#pending.set(day ?? '', counts);
    }
    let count = counts.get(linkId);
    if (!count) {
      count = { linkId, day, clicks: 0, botHits: 0 };
      counts.set(linkId, count);
    }
    return count;
  }

  /**
   * Writes in chunks, letting the event loop run between them: an embedded store writes on the main
   * thread, and one transaction for thousands of links would stall every redirect meanwhile.
   */
  async #write(): Promise<void> {
    if (!this.#hasWork()) return;
    const visits = await this.#visits();
    const entries = [...this.#pending.values()].flatMap((counts) => [...counts.values()]);
    this.#pending = new Map();
    const events = visits?.events.length ?? 0;
    const parts = visits ? this.#parts(visits.events) : [];
    // Each store write takes a chunk of the links and a part of the events (the visitors with the
    // first): one transaction stays short, however many links and events a burst left.
    const steps = Math.max(Math.ceil(entries.length / this.#chunk), parts.length);
    this.#writingLinks = entries.length;
    for (let step = 0; step < steps; step++) {
      if (step > 0) await new Promise((resolve) => setImmediate(resolve));
      const start = step * this.#chunk;
      const counts = entries
        .slice(start, start + this.#chunk)
        .filter((count) => count.clicks + count.botHits > 0);
      const bots = botKinds(counts);
      const [from, to] = parts[step] ?? [events, events];
      const part = visits && from < to ? visits.events.slice(from, to) : undefined;
      const carries = visits !== undefined && (step === 0 || part !== undefined);
      const notices = part && this.#notices ? await this.#noticesOf(part) : undefined;
      const batch: VisitBatch | undefined = carries
        ? { events: part ?? [], visitors: step === 0 ? visits.visitors : [], bots, notices }
        : bots.length > 0
          ? { events: [], visitors: [], bots }
          : undefined;
      try {
        await this.#store.addClicks(counts.map(stored), batch);
        for (const count of counts) this.flushed += count.clicks;
        // What is written is never written again: the visits keep only what is left of them.
        if (visits) {
          this.#madeFrom = to;
          this.#made = this.#madeFrom < events ? { events: visits.events, visitors: [] } : undefined;
          if (this.#made === undefined) this.#madeFrom = 0;
        }
        this.#writingLinks = Math.max(0, entries.length - start - this.#chunk);
      } catch (error) {
        this.#writingLinks = 0;
        this.#restore(entries.slice(start));
        this.#onError(error);
        return;
      }
    }
  }

  /** The webhook events of a part; when they cannot be made, the clicks are written without them. */
  async #noticesOf(part: EventTable): Promise<ClickNotices | undefined> {
    try {
      return await this.#notices?.(part);
    } catch (error) {
      this.#onError(error);
      return undefined;
    }
  }

  /** Where the events' parts begin and end (see eventsPerWrite). */
  #parts(events: EventTable): Array<[number, number]> {
    const parts: Array<[number, number]> = [];
    const links = new Set<number>();
    let from = 0;
    for (let i = 0; i < events.length; i++) {
      links.add(events.linkId(i));
      if (links.size > this.#eventLinksPerWrite || i - from >= this.#eventsPerWrite) {
        parts.push([from, i]);
        from = i;
        links.clear();
        links.add(events.linkId(i));
      }
    }
    if (from < events.length) parts.push([from, events.length]);
    return parts;
  }

  /** The visits of this flush: those made before and not written, and the raw ones made now. */
  async #visits(): Promise<MadeVisits | undefined> {
    // A write that failed part way: what it wrote goes (a copy, only after a failure).
    if (this.#made && this.#madeFrom > 0) {
      const { events, visitors } = this.#made;
      this.#made = { events: events.slice(this.#madeFrom, events.length), visitors };
      this.#madeFrom = 0;
    }
    if (this.#raws.length > 0 && this.#makeVisits) {
      const raws = this.#raws;
      this.#raws = new VisitLog();
      try {
        const made = await this.#makeVisits(raws);
        this.#made = this.#made
          ? {
              events: this.#made.events.concat(made.events),
              visitors: [...this.#made.visitors, ...made.visitors],
            }
          : made;
      } catch (error) {
        // The visitor sets cannot answer: the visits wait for the next flush (the counts do not).
        const room = MAX_HELD_VISITS - this.#raws.length;
        this.droppedVisits += Math.max(0, raws.length - room);
        this.#raws = VisitLog.joined(raws, room, this.#raws);
        this.#onError(error);
      }
    }
    return this.#made;
  }

  #restore(entries: readonly PendingCount[]): void {
    for (const count of entries) {
      if (count.clicks + count.botHits === 0) continue;
      const newer = this.#countOf(count.linkId, count.day);
      newer.clicks += count.clicks;
      newer.botHits += count.botHits;
      for (const [kind, hits] of count.bots ?? []) {
        newer.bots ??= new Map();
        newer.bots.set(kind, (newer.bots.get(kind) ?? 0) + hits);
      }
    }
  }

  #today(): string {
    const now = this.#now();
    if (now >= this.#dayEnds || now < this.#dayEnds - DAY_MS) {
      this.#day = dayText(Math.floor(now / DAY_MS));
      this.#dayEnds = now - (now % DAY_MS) + DAY_MS;
    }
    return this.#day;
  }
}

function stored(count: PendingCount): ClickCount {
  return { linkId: count.linkId, day: count.day, clicks: count.clicks, botHits: count.botHits };
}

/** The bot kinds of the counts of one chunk, written with them. */
function botKinds(counts: readonly PendingCount[]): BotKindCount[] {
  const kinds: BotKindCount[] = [];
  for (const { linkId, day, bots } of counts) {
    if (day === null || !bots) continue;
    for (const [kind, hits] of bots) kinds.push({ linkId, day, kind, hits });
  }
  return kinds;
}
