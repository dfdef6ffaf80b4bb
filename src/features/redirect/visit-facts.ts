import { type ClickEvent, DIMENSION_VALUE_MAX } from '../../core/analytics.ts';
import type { CountryLookup } from '../../core/ports/geo.ts';
import { preferredLanguage } from '../../core/targeting.ts';
import { familiesOf } from './visitor-device.ts';

/**
 * A human click as the redirect saw it, held in memory until the next flush (about a second) and
 * there turned into a ClickEvent: the address and user agent never leave this process
 * (docs/api.md §9.2).
 */
export interface RawVisit {
  linkId: number;
  accountId: number;
  at: number;
  address: string;
  userAgent: string | undefined;
  referer: string | undefined;
  acceptLanguage: string | undefined;
  /** The country a trusted CDN named (TRUST_PROXY only), else undefined. */
  trustedCountry: string | undefined;
  qr: boolean;
}

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
  const agent = familiesOf(visit.userAgent);
  return {
    linkId: visit.linkId,
    accountId: visit.accountId,
    at: visit.at,
    referrer: referrerHost(visit.referer),
    country: visit.trustedCountry ?? countries.countryOf(visit.address) ?? 'ZZ',
    device: agent.device,
    os: agent.os,
    browser: agent.browser,
    language: preferredLanguage(visit.acceptLanguage) ?? 'unknown',
    source: visit.qr ? 'qr' : 'link',
  };
}
