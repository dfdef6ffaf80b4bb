import { createHash } from 'node:crypto';

/** Rules for the `url` field (docs/api.md §2.1, §2.4): what is accepted and how duplicates are recognised. */

export const MAX_URL_LENGTH = 2048;

export interface TargetUrl {
  /** The URL as sent, trimmed of surrounding space: what `long_url` answers. */
  longUrl: string;
  /** Scheme and host lower-cased, default port dropped, empty path made `/`, the rest as sent. */
  normalized: string;
  /** Parsed form, host in ASCII (punycode) — what inspection and host rules use. */
  parsed: URL;
}

// Scheme, authority, rest. The authority stops where WHATWG parsing stops it for http(s).
const ABSOLUTE_HTTP = /^(https?):\/\/([^/\\?#]*)(.*)$/is;

/** Parses a trimmed, non-empty `url`; undefined when it is not an acceptable absolute http(s) URL. */
export function parseTargetUrl(raw: string): TargetUrl | undefined {
  const longUrl = raw.trim();
  if (longUrl.length === 0 || longUrl.length > MAX_URL_LENGTH) return undefined;
  // Control characters and inner whitespace would be silently dropped or escaped by the parser.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (/[\u0000-\u0020\u007f]/.test(longUrl)) return undefined;
  const match = ABSOLUTE_HTTP.exec(longUrl);
  if (!match?.[2]) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(longUrl);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  if (parsed.hostname === '' || parsed.username !== '' || parsed.password !== '') return undefined;
  if (match[2].includes('@')) return undefined;
  const rest = match[3] ?? '';
  const path = rest === '' || rest.startsWith('?') || rest.startsWith('#') ? `/${rest}` : rest;
  return { longUrl, normalized: `${parsed.protocol}//${parsed.host}${path}`, parsed };
}

/** True when the URL points at Snip itself (same host and port as BASE_URL). */
export function pointsAtOwnHost(target: URL, baseUrl: URL): boolean {
  return stripTrailingDot(target.host) === stripTrailingDot(baseUrl.host);
}

export function stripTrailingDot(host: string): string {
  return host.replace(/\.(?=$|:\d+$)/, '');
}

/** Hex SHA-256 of the normalized URL: the per-account duplicate key. */
export function urlHash(normalized: string): string {
  return createHash('sha256').update(normalized, 'utf8').digest('hex');
}
