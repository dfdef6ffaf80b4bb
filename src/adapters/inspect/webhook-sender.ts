import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { DeliveryAttempt, OutboundMessage, WebhookSender } from '../../core/ports/event-sinks.ts';
import { signedHeaders } from '../../core/webhook-events.ts';
import { nonPublicRange } from './address-policy.ts';
import { type AddressCheck, createPinnedAgent } from './pinned-agent.ts';
import { readCapped } from './read-body.ts';
import { describeTransportError } from './transport-error.ts';
import type { ResolvedAddress, Resolver } from './types.ts';

export interface WebhookSenderOptions {
  /** Lifts the non-public address guard (ALLOW_PRIVATE_TARGETS), as for link targets. */
  allowPrivate: boolean;
  resolve?: Resolver;
  /** Overall deadline of one send, connection and answer together; default 10 s (docs/api.md §14). */
  timeoutMs?: number;
  /** Answer body bytes read at most before the rest is dropped; default 1 KiB. */
  maxAnswerBytes?: number;
  /** The clock of the `webhook-timestamp` header (epoch ms). */
  now?: () => number;
  userAgent?: string;
}

const DEFAULT_USER_AGENT = 'Snip-Webhooks/1';

/** The fixed reasons of a failed delivery (besides `answered <status>`), for people and tests. */
export const DELIVERY_ERRORS = {
  notHttp: 'not an http(s) URL',
  blocked: 'refused: a non-public address',
  timeout: 'timed out',
  redirect: 'a redirect (not followed)',
  dns: 'the host name could not be resolved',
  tls: 'the TLS handshake failed',
  reset: 'the connection was reset',
  connect: 'could not connect',
} as const;

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, order: 'verbatim' })) as ResolvedAddress[];

/** The words a person reads for a failed connection: no address dialled, no library text. */
const TRANSPORT_REASONS: Readonly<Record<string, string>> = {
  blocked: DELIVERY_ERRORS.blocked,
  dns: DELIVERY_ERRORS.dns,
  tls: DELIVERY_ERRORS.tls,
  reset: DELIVERY_ERRORS.reset,
  timeout: DELIVERY_ERRORS.timeout,
};

function transportReason(error: unknown, timedOut: boolean): string {
  if (timedOut) return DELIVERY_ERRORS.timeout;
  return TRANSPORT_REASONS[describeTransportError(error).cause] ?? DELIVERY_ERRORS.connect;
}

/** Why a URL may not be sent to before any connection is made, or undefined when it may. */
function refusalOf(url: URL | null, check: AddressCheck): string | undefined {
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return DELIVERY_ERRORS.notHttp;
  // net.connect skips the lookup for an IP literal, so the pinned agent never sees it: check it here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) !== 0 && check(literal) !== undefined) return DELIVERY_ERRORS.blocked;
  return undefined;
}

function statusReason(status: number): string | undefined {
  if (status >= 200 && status <= 299) return undefined;
  if (status >= 300 && status <= 399) return DELIVERY_ERRORS.redirect;
  return `answered ${status}`;
}

/**
 * Sends webhooks (docs/api.md §14) through the same guard as target inspection: only http(s), every
 * resolved address checked and the connection pinned to it, redirects never followed, one deadline
 * over connection and answer, and only a small piece of the answer read. Never throws: every
 * failure is a DeliveryAttempt with a reason a person can read.
 */
export function webhookSender(options: WebhookSenderOptions): WebhookSender {
  const check: AddressCheck = options.allowPrivate ? () => undefined : nonPublicRange;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxAnswerBytes = options.maxAnswerBytes ?? 1024;
  const now = options.now ?? Date.now;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  // One agent for every send: keep-alive per origin, and a busy (hanging) connection makes the
  // pool open another rather than queue behind it.
  const agent = createPinnedAgent({ resolve: options.resolve ?? systemResolver, check, timeoutMs });

  async function deliver(url: URL, secret: string, message: OutboundMessage, signal: AbortSignal) {
    const headers = {
      'content-type': 'application/json',
      'user-agent': userAgent,
      ...signedHeaders(secret, message.id, message.body, now()),
    };
    const response = await agent.request(url, { method: 'POST', headers, body: message.body, signal });
    // The answer's content does not matter; reading a little lets a short answer keep its
    // connection alive, and a long or endless one is cut (readCapped destroys the rest).
    await readCapped(response.body, maxAnswerBytes).catch(() => undefined);
    return response.statusCode;
  }

  return {
    async send(url, secret, message): Promise<DeliveryAttempt> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const parsed = URL.parse(url);
      const refusal = refusalOf(parsed, check);
      if (refusal !== undefined || !parsed) {
        return { ok: false, status: null, durationMs: elapsed(), error: refusal };
      }
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const status = await deliver(parsed, secret, message, signal);
        const error = statusReason(status);
        return error === undefined
          ? { ok: true, status, durationMs: elapsed() }
          : { ok: false, status, durationMs: elapsed(), error };
      } catch (error) {
        return {
          ok: false,
          status: null,
          durationMs: elapsed(),
          error: transportReason(error, signal.aborted),
        };
      }
    },
    close: () => agent.destroy(),
  };
}
