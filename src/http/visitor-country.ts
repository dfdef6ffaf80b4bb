import type { IncomingHttpHeaders } from 'node:http';

const COUNTRY_HEADERS = ['cf-ipcountry', 'cloudfront-viewer-country'] as const;
const COUNTRY_CODE = /^[A-Z]{2}$/;

/** The country a trusted CDN put in a header; its words for unknown (XX) and Tor (T1) are none. */
export function countryFromHeaders(headers: IncomingHttpHeaders): string | undefined {
  for (const name of COUNTRY_HEADERS) {
    const value = headers[name];
    if (typeof value !== 'string') continue;
    const code = value.trim().toUpperCase();
    return COUNTRY_CODE.test(code) && code !== 'XX' && code !== 'ZZ' ? code : undefined;
  }
  return undefined;
}
