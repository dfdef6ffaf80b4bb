import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { UnavailableError } from '../../core/errors.ts';
import type { QrImages } from '../../core/ports/qr-images.ts';
import {
  lenientQrDesign,
  MIN_QR_CONTRAST,
  QR_MARGIN,
  QR_SIZE,
  type QrDesign,
  type QrFormat,
} from '../../core/qr-design.ts';
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

export const QR_TYPES: Record<QrFormat, string> = { png: 'image/png', svg: 'image/svg+xml' };

/** An SVG opened on its own is a document: nothing in it may load or run. */
export const SVG_POLICY = "default-src 'none'";

/** What a QR code holds: the short URL with `?qr=1`, which tells a scan from a click (docs/api.md §9.1). */
export function qrText(origins: LinkOrigins, domainId: number, code: string): string {
  return `${shortUrl(origins, { domainId, code })}?qr=1`;
}

/**
 * Renders of one workspace's codes drawn at once, and waiting for their turn behind them (docs/api.md
 * §16, docs/adr/038): past both, 503 with Retry-After at once. A workspace asking for many new
 * designs at once waits on itself, and neither takes the QR thread's queue from the others nor
 * the CPU from the redirect.
 */
export const QR_RENDERS_PER_WORKSPACE = { drawing: 4, waiting: 8 } as const;

/** The renders of each workspace under way, and the ones waiting for a place, in order. */
export class WorkspaceRenders {
  readonly #limits: { drawing: number; waiting: number };
  readonly #held = new Map<number, { drawing: number; queue: Array<() => void> }>();

  constructor(limits: { drawing: number; waiting: number } = QR_RENDERS_PER_WORKSPACE) {
    this.#limits = limits;
  }

  async run<T>(workspaceId: number, render: () => Promise<T>): Promise<T> {
    let held = this.#held.get(workspaceId);
    if (!held) {
      held = { drawing: 0, queue: [] };
      this.#held.set(workspaceId, held);
    }
    if (held.drawing < this.#limits.drawing) held.drawing++;
    else if (held.queue.length < this.#limits.waiting) await new Promise<void>((go) => held.queue.push(go));
    else throw new UnavailableError('this workspace has as many QR codes being drawn as it may', 1);
    try {
      return await render();
    } finally {
      // A render that ends hands its place to the next one waiting, if any.
      const next = held.queue.shift();
      if (next) next();
      else if (--held.drawing === 0) this.#held.delete(workspaceId);
    }
  }
}

const rendersByImages = new WeakMap<QrImages, WorkspaceRenders>();

/** The one bound of every route drawing with these images. */
export function workspaceRenders(images: QrImages): WorkspaceRenders {
  let renders = rendersByImages.get(images);
  if (!renders) {
    renders = new WorkspaceRenders();
    rendersByImages.set(images, renders);
  }
  return renders;
}

/** The image of a design, drawn on the QR thread. */
export async function drawQr(
  images: QrImages,
  text: string,
  format: QrFormat,
  design: QrDesign,
): Promise<Buffer> {
  const { size, ...look } = design;
  return format === 'svg'
    ? Buffer.from(await images.svg(text, size, look))
    : Buffer.from(await images.png(text, size, look));
}

/** The design's query parameters, as /openapi.json describes them on both QR routes. */
export const QR_DESIGN_WORDS = {
  size: `Side of the image in pixels, ${QR_SIZE.min}-${QR_SIZE.max} (default ${QR_SIZE.default}); a PNG's is the multiple of its modules nearest it.`,
  margin: `Quiet zone around the code in modules, ${QR_MARGIN.min}-${QR_MARGIN.max} (default ${QR_MARGIN.default}; scanners want 4).`,
  fg: 'Colour of the dark modules: `#rgb` or `#rrggbb`, the `#` optional or sent as `%23` (default `#000000`).',
  bg: `Colour of the background, as fg (default \`#ffffff\`). fg and bg need a WCAG contrast of at least ${MIN_QR_CONTRAST}:1.`,
  ecc: 'Error correction level: `L` (7 %), `M` (15 %, default), `Q` (25 %) or `H` (30 %).',
  domain: "The link's domain (host); by default the request's Host.",
};

interface Rendered {
  body: Buffer;
  etag: string;
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

const described = (words: Record<string, string>) =>
  Object.fromEntries(Object.entries(words).map(([name, description]) => [name, { description }]));

/** The route's schema for /openapi.json: nothing in it refuses (a malformed name is an unknown code). */
const QR_ROUTE = {
  schema: {
    operationId: 'getQrCode',
    summary: 'QR code of a short link',
    description:
      'PNG or SVG of the short URL with `?qr=1`, so that scans are told apart from clicks (the redirect drops the parameter). ' +
      'A value that cannot be read takes its default, and a number out of range is clamped; fg and bg under ' +
      `${MIN_QR_CONTRAST}:1 contrast are drawn black on white. Every module of a PNG is a whole number of pixels ` +
      'and its quiet zone exactly `margin` modules, so its side is the nearest multiple of the modules to `size`. ' +
      'New designs of one workspace are drawn a few at once, a few more wait, then 503 with Retry-After. ' +
      'GET /api/v1/links/{code}/qr refuses such values instead.',
    tags: ['QR codes'],
    security: [],
    params: {
      type: 'object',
      properties: {
        file: {
          type: 'string',
          pattern: '^[0-9A-Za-z_-]{3,64}\\.(png|svg)$',
          description: 'The short code followed by `.png` or `.svg`.',
        },
      },
    },
    querystring: { type: 'object', properties: described(QR_DESIGN_WORDS) },
    response: {
      200: {
        description: 'The image.',
        content: {
          'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
          'image/svg+xml': { schema: { type: 'string', contentMediaType: 'image/svg+xml' } },
        },
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

/** The code and format a file name asks for, or undefined. */
function fileOf(name: string): { code: string; format: QrFormat } | undefined {
  const match = /^(.+)\.(png|svg)$/.exec(name);
  if (!match?.[1] || !isLinkCode(match[1])) return undefined;
  return { code: match[1], format: match[2] as QrFormat };
}

/** GET /qrcode/<short_code>.png|.svg: rendered once per code and design, then served from memory. */
export async function qrcodeRoute(app: FastifyInstance, options: QrRouteOptions): Promise<void> {
  // Bounded by bytes too: a 1024 px PNG of a long URL weighs far more than a small one.
  const rendered = new LRUCache<string, Rendered>({
    max: 2000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (entry) => entry.body.length,
  });
  const renders = workspaceRenders(options.images);

  async function render(
    workspaceId: number,
    domainId: number,
    code: string,
    format: QrFormat,
    design: QrDesign,
  ) {
    const key = `${domainId}/${code}.${format}:${Object.values(design).join(':')}`;
    const hit = rendered.get(key);
    if (hit) return hit;
    const text = qrText(options.origins, domainId, code);
    const body = await renders.run(workspaceId, () => drawQr(options.images, text, format, design));
    const entry = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    rendered.set(key, entry);
    return entry;
  }

  app.get<{ Params: { file: string }; Querystring: Record<string, unknown> }>(
    '/qrcode/:file',
    QR_ROUTE,
    async (request, reply) => {
      const file = fileOf(request.params.file);
      if (request.validationError || !file) return sendMiss(request, reply, 404);
      const { domain: named } = request.query;
      const domain = options.domainOf(
        typeof named === 'string' && named !== '' ? named : request.headers.host,
      );
      if (!domain) return sendMiss(request, reply, 404);
      const key = domain.keyPrefix + file.code;
      const cached = options.cache.peek(key);
      const link = cached === undefined ? await loadOrUnavailable(options.cache, key) : cached;
      if (link instanceof UnavailableError) return sendMiss(request, reply, 503, link.retryAfterSeconds);
      if (!link) return sendMiss(request, reply, 404);
      let image: Rendered;
      try {
        image = await render(
          link.workspaceId,
          domain.id,
          file.code,
          file.format,
          lenientQrDesign(request.query),
        );
      } catch (error) {
        if (error instanceof UnavailableError) return sendMiss(request, reply, 503, error.retryAfterSeconds);
        throw error;
      }
      // The design is in the URL, so each design is its own cached resource.
      reply.header('etag', image.etag).header('cache-control', 'public, max-age=86400');
      if (file.format === 'svg') reply.header('content-security-policy', SVG_POLICY);
      if (request.headers['if-none-match'] === image.etag) return reply.code(304).send();
      return reply.type(QR_TYPES[file.format]).send(image.body);
    },
  );
}
