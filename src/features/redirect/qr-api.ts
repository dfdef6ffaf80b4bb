import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Refusal } from '../../core/errors.ts';
import type { QrImages } from '../../core/ports/qr-images.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import {
  QR_ECC_LEVELS,
  QR_MARGIN,
  QR_SIZE,
  type QrEcc,
  type QrFormat,
  strictQrDesign,
} from '../../core/qr-design.ts';
import type { LinkOrigins } from '../../core/short-url.ts';
import { callerOf } from '../../http/api-auth.ts';
import { DOMAIN_PARAM } from '../../http/domain-param.ts';
import { refuseOtherMethods } from '../../http/method-guard.ts';
import { RATE_LIMIT_HEADERS } from '../../http/openapi-parts.ts';
import { operationDoc } from '../../http/operation-doc.ts';
import { drawQr, QR_DESIGN_WORDS, QR_TYPES, qrText, SVG_POLICY, workspaceRenders } from './qrcode.ts';

/** GET /api/v1/links/{code}/qr (docs/api.md §16): a designed QR code, its options checked (300). */
export interface QrApiOptions {
  store: Pick<LinkStore, 'findLinkOfWorkspace'>;
  images: QrImages;
  origins: LinkOrigins;
  /** The domain `?domain=` names for the workspace (317 for one it does not see), its default without. */
  domainOf: (workspaceId: number, host: unknown) => number;
}

const COLOUR = '^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$';

/** Read as their types by the API's validator; the contrast and the rest are checked by core/qr-design.ts. */
const QrQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Unsafe<QrFormat>({
        type: 'string',
        enum: ['png', 'svg'],
        description: 'The image format (default `png`).',
      }),
    ),
    size: Type.Optional(
      Type.Integer({ minimum: QR_SIZE.min, maximum: QR_SIZE.max, description: QR_DESIGN_WORDS.size }),
    ),
    margin: Type.Optional(
      Type.Integer({ minimum: QR_MARGIN.min, maximum: QR_MARGIN.max, description: QR_DESIGN_WORDS.margin }),
    ),
    fg: Type.Optional(Type.String({ pattern: COLOUR, description: QR_DESIGN_WORDS.fg })),
    bg: Type.Optional(Type.String({ pattern: COLOUR, description: QR_DESIGN_WORDS.bg })),
    ecc: Type.Optional(
      Type.Unsafe<QrEcc>({ type: 'string', enum: [...QR_ECC_LEVELS], description: QR_DESIGN_WORDS.ecc }),
    ),
    domain: DOMAIN_PARAM,
  },
  { additionalProperties: false },
);

const QrParams = Type.Object({ code: Type.String({ maxLength: 64, description: 'The short code.' }) });

const QR = {
  config: { scope: 'links:read' },
  schema: {
    params: QrParams,
    querystring: QrQuery,
    ...operationDoc({
      operationId: 'getLinkQrCode',
      summary: "A link's QR code, designed",
      description:
        'The QR code of one link of the workspace as PNG or SVG, holding its short URL with `?qr=1` ' +
        '(scans are counted apart from clicks), the same image /qrcode/{code}.png or .svg draws. ' +
        `Every value must be right (300 otherwise), and fg and bg at least 3:1 apart in WCAG contrast.`,
      tag: 'Links',
      scope: 'links:read',
      ok: {
        200: {
          description: 'The image.',
          headers: RATE_LIMIT_HEADERS,
          content: {
            'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
            'image/svg+xml': { schema: { type: 'string', contentMediaType: 'image/svg+xml' } },
          },
        },
      },
      refusals: { 400: ['317'], 404: ['314'] },
    }),
  },
} as const;

export async function qrApiRoutes(v1: FastifyInstance, options: QrApiOptions): Promise<void> {
  const renders = workspaceRenders(options.images);
  v1.get<{ Params: Static<typeof QrParams>; Querystring: Static<typeof QrQuery> }>(
    '/links/:code/qr',
    QR,
    async (request, reply) => {
      const { format, ...design } = strictQrDesign(request.query);
      const { workspaceId } = callerOf(request).actor;
      const domainId = options.domainOf(workspaceId, request.query.domain);
      const { code } = request.params;
      const link = await options.store.findLinkOfWorkspace(workspaceId, domainId, code);
      if (!link) throw new Refusal('314', 'This workspace has no live link with that code.');
      const text = qrText(options.origins, domainId, code);
      const image = await renders.run(workspaceId, () => drawQr(options.images, text, format, design));
      reply.header('cache-control', 'private, no-cache');
      reply.header('content-disposition', `inline; filename="${code}.${format}"`);
      if (format === 'svg') reply.header('content-security-policy', SVG_POLICY);
      return reply.type(QR_TYPES[format]).send(image);
    },
  );

  refuseOtherMethods(v1, '/links/:code/qr', ['GET']);
}
