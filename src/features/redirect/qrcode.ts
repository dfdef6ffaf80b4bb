import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { UnavailableError } from '../../core/errors.ts';
import type { QrImages } from '../../core/ports/qr-images.ts';
import { isLinkCode } from '../../core/short-code.ts';
import { type LinkOrigins, shortUrl } from '../../core/short-url.ts';
import { RETRY_AFTER_HEADER } from '../../http/openapi-parts.ts';
import { serverErrorResponse } from '../../http/openapi-server-errors.ts';
import type { LinkCache } from './link-cache.ts';
import { loadOrUnavailable, type RedirectRouteOptions, sendMiss } from './route.ts';

export interface QrRouteOptions {
  cache: LinkCache;
  /** Each domain's origin: the QR code holds the link's own short URL. */
  origins: LinkOrigins;
  /** The domain a host names (the request's Host, or `?domain=`); undefined: no links there. */
  domainOf: RedirectRouteOptions['domainOf'];
  /** Where images are drawn: off the redirect's thread. */
  images: QrImages;
}

export const QR_SIZE = { min: 64, max: 1024, default: 256 };

interface Rendered {
  png: Buffer;
  etag: string;
}

/**
 * Pixels wanted: `?size=` (the first, when repeated) clamped to 64-1024, however many digits it has;
 * anything that is not a whole number means the default.
 */
export function qrSize(raw: unknown): number {
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (typeof first !== 'string' || !/^\d+$/.test(first)) return QR_SIZE.default;
  const digits = first.replace(/^0+(?=\d)/, '');
  if (digits.length > 4) return QR_SIZE.max;
  return Math.min(QR_SIZE.max, Math.max(QR_SIZE.min, Number(digits)));
}

/** A code with no image: a small page, or JSON when the client asks for JSON rather than HTML. */
function missResponse(description: string) {
  const body = {
    type: 'object',
    properties: {
      error: { type: 'string', description: 'The HTTP status as text.' },
      message: { type: 'string', description: 'Why, for a person. Wording may change.' },
    },
    required: ['error', 'message'],
  };
  return {
    description,
    content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: body } },
  };
}

/** The route's schema for /openapi.json; a malformed name is simply an unknown code, not a validation error. */
const QR_ROUTE = {
  schema: {
    operationId: 'getQrCode',
    summary: 'QR code of a short link',
    description:
      'PNG of the short URL with `?qr=1`, so that scans are told apart from clicks (the redirect drops the parameter). `size` is the width in pixels, clamped to 64-1024 (default 256).',
    tags: ['QR codes'],
    security: [],
    params: {
      type: 'object',
      properties: {
        file: {
          type: 'string',
          pattern: '^[0-9A-Za-z_-]{3,64}\\.png$',
          description: 'The short code followed by `.png`.',
        },
      },
    },
    querystring: {
      type: 'object',
      properties: {
        size: { description: 'Width in pixels; out-of-range values are clamped.' },
        domain: { description: "The link's domain (host); by default the request's Host." },
      },
    },
    response: {
      200: {
        description: 'The PNG image.',
        content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
      },
      400: serverErrorResponse('The path is not valid percent-encoding.'),
      404: missResponse('No live link has this code.'),
      500: serverErrorResponse('An unexpected fault of the server.'),
      503: { ...missResponse('The link cannot be looked up right now.'), headers: RETRY_AFTER_HEADER },
    },
  },
  // A malformed name is simply an unknown code, not a validation error.
  attachValidation: true,
  config: { anyPath: true },
} as const;

/** GET /qrcode/<short_code>.png: rendered once per code and size, then served from memory. */
export async function qrcodeRoute(app: FastifyInstance, options: QrRouteOptions): Promise<void> {
  const rendered = new LRUCache<string, Rendered>({ max: 2000 });

  async function render(domainId: number, code: string, size: number): Promise<Rendered> {
    const key = `${domainId}/${code}:${size}`;
    const hit = rendered.get(key);
    if (hit) return hit;
    // `?qr=1` tells a scan from a click (docs/api.md §9.1); the redirect never passes it on.
    const url = `${shortUrl(options.origins, { domainId, code })}?qr=1`;
    const png = Buffer.from(await options.images.png(url, size));
    const entry = { png, etag: `"${createHash('sha256').update(png).digest('base64url').slice(0, 27)}"` };
    rendered.set(key, entry);
    return entry;
  }

  app.get<{ Params: { file: string }; Querystring: { size?: string | string[]; domain?: unknown } }>(
    '/qrcode/:file',
    QR_ROUTE,
    async (request, reply) => {
      const code = request.params.file.replace(/\.png$/, '');
      if (request.validationError || !isLinkCode(code)) return sendMiss(request, reply, 404);
      const { domain: named } = request.query;
      const domain = options.domainOf(
        typeof named === 'string' && named !== '' ? named : request.headers.host,
      );
      if (!domain) return sendMiss(request, reply, 404);
      const key = domain.keyPrefix + code;
      const cached = options.cache.peek(key);
      const link = cached === undefined ? await loadOrUnavailable(options.cache, key) : cached;
      if (link instanceof UnavailableError) return sendMiss(request, reply, 503, link.retryAfterSeconds);
      if (!link) return sendMiss(request, reply, 404);
      let image: Rendered;
      try {
        image = await render(domain.id, code, qrSize(request.query.size));
      } catch (error) {
        if (error instanceof UnavailableError) return sendMiss(request, reply, 503, error.retryAfterSeconds);
        throw error;
      }
      reply.header('etag', image.etag).header('cache-control', 'public, max-age=86400');
      if (request.headers['if-none-match'] === image.etag) return reply.code(304).send();
      return reply.type('image/png').send(image.png);
    },
  );
}
