import type { IncomingHttpHeaders } from 'node:http';
import { BlockList } from 'node:net';
import type { Tracking } from '../../../core/analytics/model.ts';
import { botKindOf, type ClickKind, type RedirectRequestFacts } from '../../../http/click-kind.ts';
import { countryFromHeaders } from '../../../http/visitor-country.ts';
import type { ClickBuffer } from './click-buffer.ts';

/** What of a redirect's request analytics read: Node's IncomingMessage fits, so does Fastify's raw. */
export interface VisitRequest {
  headers: IncomingHttpHeaders;
  url?: string;
  socket: { remoteAddress?: string };
}

export interface VisitPolicy {
  tracking: Tracking;
  /** Sec-GPC: 1 or DNT: 1 make a click minimal. */
  honorDnt: boolean;
  /** Client networks counted not at all. */
  exclude: ReadonlyArray<{ address: string; prefix: number; family: 'ipv4' | 'ipv6' }>;
  /** Proxy hops whose X-Forwarded-For is believed (TRUST_PROXY); false: the socket is the client. */
  trustProxy: false | number;
  now: () => number;
}

const IPV4_MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/**
 * The client's address as Fastify's trustProxy hop count sees it: the socket's peer, or with n
 * trusted hops the n-th address from the right of X-Forwarded-For (the leftmost when fewer).
 */
export function clientAddress(req: VisitRequest, trustProxy: false | number): string {
  const socket = req.socket.remoteAddress ?? '';
  if (trustProxy === false) return socket;
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded !== 'string' || forwarded === '') return socket;
  const hops = forwarded.split(',');
  const index = hops.length - Math.min(trustProxy, hops.length);
  return hops[index]?.trim() || socket;
}

/** A QR code's image encodes the short URL with `?qr=1` (docs/api.md §9.1); the redirect drops it. */
export function cameFromQr(url: string | undefined): boolean {
  if (url === undefined) return false;
  const query = url.indexOf('?');
  return query >= 0 && /(?:^|&)qr=1(?:&|$)/.test(url.slice(query + 1));
}

/**
 * What one redirect counts (docs/api.md §9.2): nothing from TRACKING_EXCLUDE networks; the total
 * only with TRACKING=off; the count and its day with minimal (or for a click that asked not to be
 * tracked); and with full, the click's details kept for the next flush and the bot's kind.
 */
export function visitRecorder(clicks: ClickBuffer, policy: VisitPolicy) {
  const excluded = new BlockList();
  for (const { address, prefix, family } of policy.exclude) excluded.addSubnet(address, prefix, family);
  const excludes = policy.exclude.length > 0;
  const isExcluded = (address: string) => {
    const mapped = IPV4_MAPPED.exec(address)?.[1];
    if (mapped) return excluded.check(mapped, 'ipv4');
    return excluded.check(address, address.includes(':') ? 'ipv6' : 'ipv4');
  };
  const trustCountry = policy.trustProxy !== false;

  return (
    linkId: number,
    workspaceId: number,
    kind: ClickKind,
    facts: RedirectRequestFacts,
    req: VisitRequest,
    /** The bot's kind when the caller knows it better (a link previewer, docs/api.md §16). */
    botKind?: string,
    /** The A/B test's variant the redirect chose (1-4), 0 for none (docs/api.md §20.x). */
    variant = 0,
  ): void => {
    let address: string | undefined;
    if (excludes) {
      address = clientAddress(req, policy.trustProxy);
      if (isExcluded(address)) return;
    }
    if (policy.tracking === 'off') {
      clicks.record(linkId, kind, false);
      return;
    }
    const { headers } = req;
    const full =
      policy.tracking === 'full' && !(policy.honorDnt && (headers['sec-gpc'] === '1' || headers.dnt === '1'));
    if (!full) {
      clicks.record(linkId, kind);
      return;
    }
    if (kind !== 'human') {
      clicks.record(linkId, kind, true, botKind ?? botKindOf(facts));
      return;
    }
    clicks.record(linkId, kind);
    clicks.visit({
      linkId,
      workspaceId,
      at: policy.now(),
      address: address ?? clientAddress(req, policy.trustProxy),
      userAgent: headers['user-agent'],
      referer: headers.referer,
      acceptLanguage: headers['accept-language'],
      trustedCountry: trustCountry ? countryFromHeaders(headers) : undefined,
      qr: cameFromQr(req.url),
      variant,
    });
  };
}

export type VisitRecorder = ReturnType<typeof visitRecorder>;
