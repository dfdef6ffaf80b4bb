import { MAX_URL_LENGTH, parseTargetUrl } from './target-url.ts';

/**
 * A long URL as a person types it (docs/api.md §18): why one is refused, named once for the API's
 * `message` and the pages' sentences, and the `https://` the pages assume when a scheme is left
 * out. The APIs stay strict: only the pages prefix anything.
 */

/** Why `parseTargetUrl` refuses a URL, as far as a person can act on it. */
export type UrlFault = 'no-scheme' | 'scheme' | 'credentials' | 'too-long' | 'malformed';

// A scheme, unless what follows the colon is a port (`example.com:8080/x`, `localhost:3000`).
const SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;

/** The cause a URL is refused for; undefined for an acceptable one, or an empty one (302's). */
export function urlFault(raw: string): UrlFault | undefined {
  const url = raw.trim();
  if (url === '' || parseTargetUrl(url)) return undefined;
  if (url.length > MAX_URL_LENGTH) return 'too-long';
  if (!SCHEME.test(url)) return 'no-scheme';
  if (!/^https?:/i.test(url)) return 'scheme';
  const authority = /^https?:\/\/([^/\\?#]*)/i.exec(url)?.[1] ?? '';
  return authority.includes('@') ? 'credentials' : 'malformed';
}

/** What the API says of each cause in a 300's `message` (wording is no contract). */
export const URL_FAULT_MESSAGE: Readonly<Record<UrlFault, string>> = {
  'no-scheme': 'The url has no scheme: it must start with http:// or https://.',
  scheme: 'The url must use http or https; other schemes are not shortened.',
  credentials: 'The url must not hold a user name or password.',
  'too-long': 'The url is longer than 2,048 characters.',
  malformed: 'The url must be an absolute http(s) URL of at most 2,048 characters.',
};

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** A host a person means as a web site: a dotted name ending in a real-looking top label, or IPv4. */
function looksLikeHost(hostname: string): boolean {
  const ip = IPV4.exec(hostname);
  if (ip) return ip.slice(1).every((part) => Number(part) <= 255);
  const labels = hostname.replace(/\.$/, '').split('.');
  const top = labels.at(-1) ?? '';
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && TOP_LABEL.test(top);
}

/**
 * The URL with `https://` in front when it was typed without a scheme and the rest parses as a
 * host (`example.com/x`); anything else as typed, for the checks to refuse with its own cause
 * (`localhost`, `foo`, `javascript:…`, `//example.com`).
 */
export function withAssumedScheme(raw: string): string {
  const url = raw.trim();
  if (url === '' || SCHEME.test(url) || url.startsWith('/') || url.startsWith('\\')) return raw;
  const candidate = `https://${url}`;
  const target = parseTargetUrl(candidate);
  if (!target || !looksLikeHost(target.parsed.hostname)) return raw;
  return candidate;
}
