import type { IncomingHttpHeaders } from 'node:http';
import type { CountryLookup } from '../../core/ports/geo.ts';
import { type Device, preferredLanguage, type VisitorFacts } from '../../core/targeting.ts';
import { countryFromHeaders } from '../../http/visitor-country.ts';
import { type DeviceFacts, deviceOf } from '../../http/visitor-device.ts';

/** What of a request the facts come from: Fastify's request fits, and so does a plain object in tests. */
export interface VisitorRequest {
  headers: IncomingHttpHeaders;
  /** The client address (the proxy's view of it when TRUST_PROXY is set). */
  ip: string;
}

export interface VisitorOptions {
  /**
   * Take the country a CDN in front names (`CF-IPCountry`, `CloudFront-Viewer-Country`) before the
   * address's: only when TRUST_PROXY is set (docs/adr/017), since any client can send them too.
   */
  trustCountryHeaders?: boolean;
}

const NOT_YET = Symbol('not yet asked');
/** A fact computed the first time it is asked and remembered for the rest of the request. */
function once<T>(compute: () => T): () => T {
  let value: T | typeof NOT_YET = NOT_YET;
  return () => {
    if (value === NOT_YET) value = compute();
    return value;
  };
}

/**
 * The facts targeting rules ask of a visitor (docs/api.md §8.3, docs/adr/017), each computed only
 * when a rule asks and at most once per request: a link whose rules name only a language never
 * parses the user agent nor looks up the address.
 */
export function visitorFacts(
  request: VisitorRequest,
  countries: CountryLookup,
  options: VisitorOptions = {},
): VisitorFacts {
  const device = once<DeviceFacts>(() => deviceOf(request.headers['user-agent']));
  const country = once(
    () =>
      (options.trustCountryHeaders ? countryFromHeaders(request.headers) : undefined) ??
      countries.countryOf(request.ip),
  );
  const language = once(() => preferredLanguage(request.headers['accept-language']));
  return {
    isDevice: (wanted: Device) => device()[wanted],
    country,
    language,
  };
}
