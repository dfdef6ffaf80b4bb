import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * Host names of domains (docs/api.md §12): what an added domain may be, and how a request's Host
 * header names one. Hosts are stored and compared in their ASCII form: lower case, punycode for
 * IDN, no trailing dot, no port.
 */

/** A host name's longest ASCII form (RFC 1035: 253 characters, labels of at most 63). */
export const HOST_MAX_LENGTH = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export type HostCheck = { ok: true; host: string } | { ok: false; reason: HostRefusal };

/** Why a name cannot be a domain: not a host name at all, or one Snip cannot serve links on. */
export type HostRefusal = 'malformed' | 'ip-literal' | 'port' | 'wildcard' | 'single-label';

/**
 * A domain as an operator or a workspace types it, in its stored form: "Go.Acme.COM." and
 * "go.acme.com" are the same domain; "bücher.example" is stored as "xn--bcher-kva.example".
 */
export function domainHost(input: string): HostCheck {
  const trimmed = input.trim().toLowerCase().replace(/\.$/, '');
  if (trimmed.includes('*')) return { ok: false, reason: 'wildcard' };
  // node:url would read these as the end of a host and keep only what comes before.
  if (/[/?#\\%@\s]/.test(trimmed)) return { ok: false, reason: 'malformed' };
  if (isIP(trimmed) !== 0 || /^\[.*\]$/.test(trimmed)) return { ok: false, reason: 'ip-literal' };
  if (/:\d*$/.test(trimmed)) return { ok: false, reason: 'port' };
  if (trimmed.length === 0 || trimmed.length > HOST_MAX_LENGTH * 4) return { ok: false, reason: 'malformed' };
  const ascii = domainToASCII(trimmed);
  if (ascii === '' || ascii.length > HOST_MAX_LENGTH) return { ok: false, reason: 'malformed' };
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label))) return { ok: false, reason: 'malformed' };
  if (labels.length < 2) return { ok: false, reason: 'single-label' };
  // The last label is a top-level domain: never all digits (that would be an IPv4 address's tail).
  if (/^\d+$/.test(labels[labels.length - 1] as string)) return { ok: false, reason: 'ip-literal' };
  return { ok: true, host: ascii };
}

/** A scheme and a trailing slash around a host, as a URL pasted from a browser brings them. */
const PASTED = /^\s*https?:\/\/([^/]*)\/?\s*$/i;

/**
 * A domain as a person types it into a form or the API: a host, or one pasted as a URL —
 * `https://go.acme.com/` is `go.acme.com`. Only `http://` or `https://` and one trailing `/` are
 * dropped; whatever else a URL may hold (a path, a query, user info, a port) is still no domain.
 */
export function typedDomainHost(input: string): HostCheck {
  const pasted = PASTED.exec(input);
  return domainHost(pasted ? (pasted[1] as string) : input.replace(/\/(\s*)$/, '$1'));
}

/**
 * A stored host as people read it: an internationalized name in Unicode ("xn--bcher-kva.example"
 * is "bücher.example"); any other host, or one that does not decode, as it is stored.
 */
export function displayHost(host: string): string {
  if (!host.includes('xn--')) return host;
  const unicode = domainToUnicode(host);
  return unicode === '' ? host : unicode;
}

/** What a request's Host header names, for the link space. */
export type HostName =
  /** An address or a name with no dot ("localhost"): the server reached directly, the default domain's. */
  { direct: true } | { direct: false; host: string };

/**
 * The host a request's Host header names: port and trailing dot dropped, lower case, punycode.
 * A missing header, an IP literal or a single-label name is the server reached directly.
 */
export function hostOfHeader(header: string | undefined): HostName {
  if (header === undefined || header === '') return { direct: true };
  let host = header.trim().toLowerCase();
  if (host.startsWith('[')) return { direct: true };
  const colon = host.lastIndexOf(':');
  if (colon >= 0) host = host.slice(0, colon);
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (isIP(host) !== 0 || !host.includes('.')) return { direct: true };
  const ascii = host.length > HOST_MAX_LENGTH * 4 ? '' : domainToASCII(host);
  return { direct: false, host: ascii === '' ? host : ascii };
}
