import type { FastifyInstance } from 'fastify';
import type { QrImages } from '../../core/ports/qr-images.ts';
import type { Store } from '../../core/ports/store.ts';
import type { LinkOrigins } from '../../core/short-url.ts';

/** GET /api/v1/links/{code}/qr (docs/api.md §16): a designed QR code, its options checked (300). */
export interface QrApiOptions {
  store: Pick<Store, 'findLinkOfAccount'>;
  images: QrImages;
  origins: LinkOrigins;
  /** The domain `?domain=` names for the workspace (317 for one it does not see), its default without. */
  domainOf: (workspaceId: number, host: unknown) => number;
}

export async function qrApiRoutes(_v1: FastifyInstance, _options: QrApiOptions): Promise<void> {}
