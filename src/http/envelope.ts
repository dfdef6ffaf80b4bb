import type { FastifyReply } from 'fastify';
import { type ApiError, ERROR_TABLE, type UnavailableError } from '../domain/errors.ts';
import { formatTimestamp } from '../domain/timestamp.ts';
import { qrCodeUrl, shortUrl } from '../services/create-link.ts';
import type { Link } from '../store/ports.ts';
import type { ErrorBody, SuccessBody } from './schemas.ts';

/** Renders /create answers in the fixed envelope (SPEC.md 2.2); the only place that shapes them. */
export interface EnvelopeOptions {
  baseUrl: URL;
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
    created(reply: FastifyReply, link: Link, message = 'The short link was created.'): FastifyReply {
      const body: SuccessBody = {
        success: 'true',
        timestamps: timestamps(),
        message,
        error: '',
        short_code: link.code,
        short_url: shortUrl(options.baseUrl, link.code),
        long_url: link.longUrl,
        qr_code: qrCodeUrl(options.baseUrl, link.code),
        title: link.title,
        clicks: link.clicks,
      };
      options.onOutcome?.('');
      return reply.code(status(201)).header('location', body.short_url).send(body);
    },

    failed(reply: FastifyReply, error: ApiError): FastifyReply {
      const body: ErrorBody = {
        success: 'false',
        timestamps: timestamps(),
        message: error.message,
        error: error.code,
      };
      options.onOutcome?.(error.code);
      return reply.code(status(ERROR_TABLE[error.code].status)).headers(error.headers).send(body);
    },

    /** A fault of ours, not a refusal: HTTP 500 with `error` "500", so clients can retry. */
    internal(reply: FastifyReply): FastifyReply {
      return fault(reply, 500, 'The server could not complete the request; try again later.');
    },

    /** A dependency is unreachable: HTTP 503 with `error` "503" and Retry-After; nothing was judged. */
    unavailable(reply: FastifyReply, error: UnavailableError): FastifyReply {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return fault(reply, 503, error.message);
    },
  };
}

export type EnvelopeRenderer = ReturnType<typeof envelopeRenderer>;
