import type { ConversionClick } from '../../core/conversions.ts';
import { newClickId } from '../../core/conversions.ts';
import { DAY_MS, dayText } from '../../core/days.ts';
import type { ConversionStore } from '../../core/ports/conversion-store.ts';
import type { CountryLookup } from '../../core/ports/geo.ts';
import { countryFromHeaders } from '../../http/visitor-country.ts';
import { cameFromQr, clientAddress, VisitFacts, VisitLog, type VisitRequest } from '../analytics/index.ts';

/** Click ids held at most while the store cannot take them. */
const MAX_HELD = 200_000;
/** Click ids written per store call. */
const PER_WRITE = 2000;

export interface ClickIdOptions {
  store: Pick<ConversionStore, 'addConversionClicks'>;
  countries: CountryLookup;
  /** TRACKING: `off` hands out no ids; `minimal` ids without the facts of §9.1. */
  tracking: 'full' | 'minimal' | 'off';
  /** Sec-GPC: 1 or DNT: 1 gets no id (HONOR_DNT). */
  honorDnt: boolean;
  trustProxy: false | number;
  intervalMs: number;
  now: () => number;
  onError: (error: unknown) => void;
}

/**
 * The click ids of tracked links (docs/api.md §20): one drawn at random per human click on the
 * redirect's path (no store call there), held as the clicks' visits are (a columnar log, the
 * request's strings kept once), and written in batches with the click's link, day and the facts of
 * §9.1, each distinct string worked out once per flush. A failed write keeps its rows for the next
 * flush, and close() writes what is left, so an id handed out survives a graceful stop.
 */
export class ClickIds {
  readonly #options: ClickIdOptions;
  readonly #timer: NodeJS.Timeout;
  #ids: string[] = [];
  #log = new VisitLog();
  /** Rows made and not written yet (their write failed): written first by the next flush. */
  #unwritten: ConversionClick[] = [];
  #writing: Promise<void> = Promise.resolve();
  dropped = 0;
  written = 0;

  constructor(options: ClickIdOptions) {
    this.#options = options;
    this.#timer = setInterval(() => void this.flush(), options.intervalMs);
    this.#timer.unref();
  }

  /** A new id for a human click of a tracked link, or undefined when this click gets none. */
  issue(linkId: number, workspaceId: number, req: VisitRequest, variant = 0): string | undefined {
    const { tracking, honorDnt, trustProxy } = this.#options;
    if (tracking === 'off') return undefined;
    const { headers } = req;
    if (honorDnt && (headers['sec-gpc'] === '1' || headers.dnt === '1')) return undefined;
    if (this.pending >= MAX_HELD) {
      this.dropped++;
      return undefined;
    }
    const clickId = newClickId();
    const full = tracking === 'full';
    this.#ids.push(clickId);
    this.#log.push({
      linkId,
      workspaceId,
      at: this.#options.now(),
      address: full ? clientAddress(req, trustProxy) : '',
      userAgent: full ? headers['user-agent'] : undefined,
      referer: full ? headers.referer : undefined,
      acceptLanguage: full ? headers['accept-language'] : undefined,
      trustedCountry: full && trustProxy !== false ? countryFromHeaders(headers) : undefined,
      qr: full && cameFromQr(req.url),
      variant,
    });
    return clickId;
  }

  /** Ids handed out and not yet written. */
  get pending(): number {
    return this.#ids.length + this.#unwritten.length;
  }

  /** Writes what is held now; flushes never overlap. */
  flush(): Promise<void> {
    this.#writing = this.#writing.then(() => this.#write());
    return this.#writing;
  }

  /** Stops the timer and writes what is left, retrying a store that fails for a moment. */
  async close(attempts = 3): Promise<void> {
    clearInterval(this.#timer);
    for (let attempt = 0; attempt < attempts && this.pending > 0; attempt++) await this.flush();
  }

  async #write(): Promise<void> {
    const rows = this.#unwritten.concat(this.#rows());
    this.#unwritten = [];
    for (let start = 0; start < rows.length; start += PER_WRITE) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const part = rows.slice(start, start + PER_WRITE);
      try {
        await this.#options.store.addConversionClicks(part);
        this.written += part.length;
      } catch (error) {
        this.#unwritten = rows.slice(start);
        this.#options.onError(error);
        return;
      }
    }
  }

  /** The rows of the ids held now, which leave the log. */
  #rows(): ConversionClick[] {
    const ids = this.#ids;
    const log = this.#log;
    if (ids.length === 0) return [];
    this.#ids = [];
    this.#log = new VisitLog();
    const facts =
      this.#options.tracking === 'full' ? new VisitFacts(log, this.#options.countries) : undefined;
    return ids.map((clickId, i) => {
      const event = facts?.event(i, '');
      return {
        clickId,
        workspaceId: log.workspaceId(i),
        linkId: log.linkId(i),
        // The A/B test's variant the click was sent to (docs/api.md §20), as its events name it.
        variant: log.variant(i) === 0 ? null : String(log.variant(i)),
        day: dayText(Math.floor(log.at(i) / DAY_MS)),
        facts: event
          ? {
              referrer: event.referrer,
              country: event.country,
              device: event.device,
              os: event.os,
              browser: event.browser,
              language: event.language,
              source: event.source,
            }
          : null,
      };
    });
  }
}
