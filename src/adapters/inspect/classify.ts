import { Buffer } from 'node:buffer';
import type { InspectOutcome } from '../../core/ports/inspector.ts';

export type Headers = Record<string, string | string[] | undefined>;

export interface FinalResponse {
  status: number;
  /** Lower-case names, as undici and node:http give them. */
  headers: Headers;
  /** A prefix of the body: enough for the checks below when `bodyMatters(status)`, else possibly empty. */
  body: Uint8Array;
}

export type Verdict = { ok: true } | Extract<InspectOutcome, { ok: false }>;

/** WAF block pages are recognised by their body only on these statuses. */
const MODSECURITY_BODY_STATUSES = new Set([403, 406]);
const CLOUDFLARE_BODY_STATUSES = new Set([403, 429, 503]);

const MODSECURITY_SERVER = /mod_?security|noyb/i;
const MODSECURITY_BODY_MARKERS = ['mod_security', 'modsecurity'];
const CLOUDFLARE_BODY_MARKERS = ['/cdn-cgi/challenge-platform/', '_cf_chl_opt', '<title>just a moment'];

/** Whether the checks need some of the body for this status (callers cap what they read). */
export function bodyMatters(status: number): boolean {
  return MODSECURITY_BODY_STATUSES.has(status) || CLOUDFLARE_BODY_STATUSES.has(status);
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function bodyHasAny(body: Uint8Array, markers: readonly string[]): boolean {
  const text = Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1').toLowerCase();
  return markers.some((marker) => text.includes(marker));
}

function isModSecurity({ status, headers, body }: FinalResponse): boolean {
  if (MODSECURITY_SERVER.test(header(headers, 'server') ?? '')) return true;
  return MODSECURITY_BODY_STATUSES.has(status) && bodyHasAny(body, MODSECURITY_BODY_MARKERS);
}

function isCloudflareChallenge({ status, headers, body }: FinalResponse): boolean {
  if (header(headers, 'cf-mitigated')?.trim().toLowerCase() === 'challenge') return true;
  return (
    CLOUDFLARE_BODY_STATUSES.has(status) &&
    /^cloudflare/i.test(header(headers, 'server')?.trim() ?? '') &&
    bodyHasAny(body, CLOUDFLARE_BODY_MARKERS)
  );
}

/** docs/api.md §2.3 rows 12-15 and 2.7, in that order, for the response left after redirects. */
export function classify(response: FinalResponse): Verdict {
  const { status, headers } = response;
  if (status === 404) return { ok: false, code: '307', reason: 'target answered 404' };
  if (isModSecurity(response)) return { ok: false, code: '308', reason: 'target is behind ModSecurity' };
  if (isCloudflareChallenge(response)) {
    return { ok: false, code: '309', reason: 'target answered with a Cloudflare challenge' };
  }
  if (status < 200 || status > 299)
    return { ok: false, code: '306', reason: `target answered ${status}`, cause: 'status' };
  if (header(headers, 'content-length')?.trim() === '0') {
    return { ok: false, code: '311', reason: 'target declared Content-Length: 0' };
  }
  return { ok: true };
}
