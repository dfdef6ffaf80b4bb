import type { ConversionClick } from '../../core/conversions.ts';
import { newClickId } from '../../core/conversions.ts';
import { DAY_MS, dayText } from '../../core/days.ts';
import type { ConversionStore } from '../../core/ports/conversion-store.ts';
import type { CountryLookup } from '../../core/ports/geo.ts';
import { countryFromHeaders } from '../../http/visitor-country.ts';
import {
  cameFromQr,
  clickFacts,
  clientAddress,
  type RawVisit,
  type VisitRequest,
} from '../analytics/index.ts';

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

interface Pending {
  clickId: string;
  linkId: number;
  workspaceId: number;
  at: number;
  /** What the facts are worked out of at the flush (TRACKING=full); never stored as such. */
  raw: RawVisit | undefined;
}

/**
 * The click ids of tracked links (docs/api.md §20): one drawn at random per human click on the
 * redirect's path (no store call there), kept in memory and written in batches with the click's
 * link, day and the facts of §9.1, like the clicks themselves. A failed write keeps them for the
 * next flush, and close() writes what is left, so an id handed out survives a graceful stop.
 */
export class ClickIds {
  readonly #options: ClickIdOptions;
  readonly #timer: NodeJS.Timeout;
  #pending: Pending[] = [];
  #writing: Promise<void> = Promise.resolve();
  dropped = 0;
  written = 0;

  constructor(options: ClickIdOptions) {
    this.#options = options;
    this.#timer = setInterval(() => void this.flush(), options.intervalMs);
    this.#timer.unref();
  }

  /** A new id for a human click of a tracked link, or undefined when this click gets none. */
  issue(linkId: number, workspaceId: number, req: VisitRequest): string | undefined {
    const { tracking, honorDnt } = this.#options;
    if (tracking === 'off') return undefined;
    const { headers } = req;
    if (honorDnt && (headers['sec-gpc'] === '1' || headers.dnt === '1')) return undefined;
    if (this.#pending.length >= MAX_HELD) {
      this.dropped++;
      return undefined;
    }
    const clickId = newClickId();
    const at = this.#options.now();
    const raw: RawVisit | undefined =
      tracking === 'full'
        ? {
            linkId,
            workspaceId,
            at,
            address: clientAddress(req, this.#options.trustProxy),
            userAgent: headers['user-agent'],
            referer: headers.referer,
            acceptLanguage: headers['accept-language'],
            trustedCountry: this.#options.trustProxy !== false ? countryFromHeaders(headers) : undefined,
            qr: cameFromQr(req.url),
          }
        : undefined;
    this.#pending.push({ clickId, linkId, workspaceId, at, raw });
    return clickId;
  }

  get pending(): number {
    return this.#pending.length;
  }

  /** Writes what is held now; flushes never overlap. */
  flush(): Promise<void> {
    this.#writing = this.#writing.then(() => this.#write());
    return this.#writing;
  }

  /** Stops the timer and writes what is left, retrying a store that fails for a moment. */
  async close(attempts = 3): Promise<void> {
    clearInterval(this.#timer);
    for (let attempt = 0; attempt < attempts && this.#pending.length > 0; attempt++) await this.flush();
  }

  async #write(): Promise<void> {
    while (this.#pending.length > 0) {
      const part = this.#pending.slice(0, PER_WRITE);
      const rows = part.map((click) => this.#row(click));
      try {
        await this.#options.store.addConversionClicks(rows);
      } catch (error) {
        this.#options.onError(error);
        return;
      }
      // Only what was written goes: ids issued meanwhile were pushed behind it.
      this.#pending = this.#pending.slice(part.length);
      this.written += part.length;
    }
  }

  #row(click: Pending): ConversionClick {
    const facts = click.raw ? clickFacts(click.raw, this.#options.countries) : null;
    return {
      clickId: click.clickId,
      workspaceId: click.workspaceId,
      linkId: click.linkId,
      // Filled by A/B tests (docs/api.md §20) once a link carries variants.
      variant: null,
      day: dayText(Math.floor(click.at / DAY_MS)),
      facts: facts && {
        referrer: facts.referrer,
        country: facts.country,
        device: facts.device,
        os: facts.os,
        browser: facts.browser,
        language: facts.language,
        source: facts.source,
      },
    };
  }
}
