import { type ClickEvent, DIMENSION_VALUE_MAX } from '../../../core/analytics/model.ts';
import type { CountryLookup } from '../../../core/ports/geo.ts';
import { preferredLanguage } from '../../../core/targeting.ts';
import { familiesOf } from '../../../http/visitor-device.ts';
import { type RawVisit, VisitLog } from './visit-log.ts';

export type { RawVisit };

/** A visit's variant number as the event's value: '' for none. */
const VARIANTS = ['', '1', '2', '3', '4'];

/** Enough of a Referer for any host; longer values are cut before they are parsed. */
const MAX_REFERER = 2048;
const SCHEME = /^[a-z][a-z0-9+.-]{0,31}:\/\//i;
const HOST = /^(?:[a-z0-9-]{1,63}\.)*[a-z0-9-]{1,63}$|^\[[0-9a-f:.]{2,45}\]$/;

/**
 * The host of a Referer, lower case, without credentials or port; `direct` when there is none or
 * it is not an absolute URL (the header is the client's word, any text may come).
 */
export function referrerHost(referer: string | undefined): string {
  if (typeof referer !== 'string' || referer === '') return 'direct';
  const text = referer.slice(0, MAX_REFERER);
  const scheme = SCHEME.exec(text);
  if (!scheme) return 'direct';
  const rest = text.slice(scheme[0].length);
  const end = rest.search(/[/?#\\]/);
  let authority = end < 0 ? rest : rest.slice(0, end);
  authority = authority.slice(authority.lastIndexOf('@') + 1);
  const host = (
    authority.startsWith('[')
      ? authority.slice(0, authority.indexOf(']') + 1)
      : authority.replace(/:\d*$/, '')
  ).toLowerCase();
  return host.length <= DIMENSION_VALUE_MAX && HOST.test(host.replace(/\.$/, ''))
    ? host.replace(/\.$/, '')
    : 'direct';
}

/** Everything a stored event says of a click but the visitor id (computed with the day's secret). */
export function clickFacts(visit: RawVisit, countries: CountryLookup): Omit<ClickEvent, 'visitor'> {
  const log = new VisitLog();
  log.push(visit);
  const { visitor: _, ...facts } = new VisitFacts(log, countries).event(0, '');
  return facts;
}

/**
 * The facts of a log's visits, each worked out once per distinct string of the flush: a referrer
 * host per Referer, a language per Accept-Language, a country per address, families per agent.
 */
export class VisitFacts {
  readonly #raws: VisitLog;
  readonly #countries: CountryLookup;
  readonly #referrers: Array<string | undefined> = [];
  readonly #languages: Array<string | undefined> = [];
  readonly #addressCountries: Array<string | undefined> = [];

  constructor(raws: VisitLog, countries: CountryLookup) {
    this.#raws = raws;
    this.#countries = countries;
  }

  event(i: number, visitor: string): ClickEvent {
    const raws = this.#raws;
    const agent = familiesOf(raws.text(raws.userAgent(i)));
    const trusted = raws.trustedCountry(i);
    return {
      linkId: raws.linkId(i),
      workspaceId: raws.workspaceId(i),
      at: raws.at(i),
      referrer: once(this.#referrers, raws.referer(i), (index) => referrerHost(raws.text(index))),
      country:
        trusted !== 0
          ? (raws.text(trusted) as string)
          : once(
              this.#addressCountries,
              raws.address(i),
              (index) => this.#countries.countryOf(raws.text(index) ?? '') ?? 'ZZ',
            ),
      device: agent.device,
      os: agent.os,
      browser: agent.browser,
      language: once(
        this.#languages,
        raws.language(i),
        (index) => preferredLanguage(raws.text(index)) ?? 'unknown',
      ),
      source: raws.qr(i) ? 'qr' : 'link',
      variant: VARIANTS[raws.variant(i)] ?? '',
      visitor,
    };
  }
}

function once(memo: Array<string | undefined>, index: number, make: (index: number) => string): string {
  let value = memo[index];
  if (value === undefined) {
    value = make(index);
    memo[index] = value;
  }
  return value;
}
