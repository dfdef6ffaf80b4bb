import type { FastifyReply } from 'fastify';
import type { Link } from '../../../core/entities.ts';
import type { ApiErrorCode, RateState, Refusal, UnavailableError } from '../../../core/errors.ts';
import { type LinkOrigins, qrCodeUrl, shortUrl } from '../../../core/short-url.ts';
import { formatTimestamp } from '../../../core/timestamp.ts';
import { API_STATUS } from '../../../http/api-statuses.ts';
import { rateHeaders } from '../../../http/rate-headers.ts';
import type { ErrorBody, SuccessBody } from './create-schemas.ts';

/**
 * Renders /create answers in the fixed envelope (docs/api.md §2.2): the one place that maps a code to
 * its HTTP status and a refusal's facts to headers (RateLimit-*, Retry-After, Location).
 */
export interface EnvelopeOptions {
  /** Each domain's origin, for short_url and qr_code. */
  origins: LinkOrigins;
  timestampTz: string;
  httpStatusMode: 'rest' | 'always-200';
  now?: () => number;
  /** Told of every answer's `error` ("" on success), e.g. for metrics. */
  onOutcome?: (error: string) => void;
}

export function envelopeRenderer(options: EnvelopeOptions) {
  const status = (wanted: number) => (options.httpStatusMode === 'always-200' ? 200 : wanted);
  const now = options.now ?? Date.now;
  const timestamps = () => formatTimestamp(new Date(now()), options.timestampTz);

  function fault(reply: FastifyReply, code: 500 | 503, message: string): FastifyReply {
    options.onOutcome?.(String(code));
    return reply
      .code(status(code))
      .send({ success: 'false', timestamps: timestamps(), message, error: String(code) });
  }

  return {
    created(reply: FastifyReply, link: Link, rate: RateState): FastifyReply {
      const body: SuccessBody = {
        success: 'true',
        timestamps: timestamps(),
        message: 'The short link was created.',
        error: '',
        short_code: link.code,
        short_url: shortUrl(options.origins, link),
        long_url: link.longUrl,
        qr_code: qrCodeUrl(options.origins, link),
        title: link.title,
        clicks: link.clicks,
      };
      options.onOutcome?.('');
      reply.headers(rateHeaders(rate));
      return reply.code(status(201)).header('location', body.short_url).send(body);
    },

    failed(reply: FastifyReply, refusal: Refusal<ApiErrorCode>): FastifyReply {
      const { rate, retryAfterSeconds, existingCode, existingDomainId = 0 } = refusal.facts;
      reply.headers(rateHeaders(rate));
      if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
      if (existingCode !== undefined) {
        reply.header(
          'location',
          shortUrl(options.origins, { domainId: existingDomainId, code: existingCode }),
        );
      }
      const body: ErrorBody = {
        success: 'false',
        timestamps: timestamps(),
        message: refusal.message,
        error: refusal.code,
      };
      options.onOutcome?.(refusal.code);
      return reply.code(status(API_STATUS[refusal.code])).send(body);
    },

    /** A fault of ours, not a refusal: HTTP 500 with `error` "500", so clients can retry. */
    internal(reply: FastifyReply): FastifyReply {
      return fault(reply, 500, 'The server could not complete the request; try again later.');
    },

    /** Not a /create request at all (another method): 405 whatever the status mode, Allow set by the caller. */
    wrongMethod(reply: FastifyReply): FastifyReply {
      options.onOutcome?.('405');
      return reply
        .code(405)
        .send({ success: 'false', timestamps: timestamps(), message: 'Send POST.', error: '405' });
    },

    /** A dependency is unreachable: HTTP 503 with `error` "503" and Retry-After; nothing was judged. */
    unavailable(reply: FastifyReply, error: UnavailableError): FastifyReply {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return fault(reply, 503, error.message);
    },
  };
}

export type EnvelopeRenderer = ReturnType<typeof envelopeRenderer>;
