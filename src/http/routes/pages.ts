import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const ASSETS_DIR = join(import.meta.dirname, '..', '..', 'web', 'assets');
const ASSET_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

/** Third-party files served from our own origin under /assets/, by the name pages use. */
const VENDOR_ASSETS: Record<string, string> = {
  'uplot.js': 'uplot/dist/uPlot.iife.min.js',
  'uplot.css': 'uplot/dist/uPlot.min.css',
};

/** Our own static files, read once: pages use no external asset. */
function loadAssets(
  names: readonly string[],
  vendor: Readonly<Record<string, string>> = {},
): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const resolve = createRequire(import.meta.url).resolve;
  const files = [
    ...names.map((name) => [name, join(ASSETS_DIR, name)] as const),
    ...Object.entries(vendor).map(([name, module]) => [name, resolve(module)] as const),
  ];
  for (const [name, path] of files) {
    const body = readFileSync(path);
    const type = ASSET_TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
    assets.set(name, {
      body,
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    });
  }
  return assets;
}

export interface PageRouteOptions {
  /** Extra asset files (e.g. a chart library) served from /assets/. */
  extraAssets?: ReadonlyMap<string, { body: Buffer; type: string }>;
}

export async function pageRoutes(app: FastifyInstance, options: PageRouteOptions): Promise<void> {
  const assets = loadAssets(['snip.css', 'tester.js', 'dashboard.css', 'dashboard.js'], VENDOR_ASSETS);
  for (const [name, extra] of options.extraAssets ?? []) {
    const etag = `"${createHash('sha256').update(extra.body).digest('base64url').slice(0, 22)}"`;
    assets.set(name, { ...extra, etag });
  }

  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { schema: { hide: true } },
    async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) return reply.callNotFound();
      reply.header('etag', asset.etag).header('cache-control', 'public, max-age=300');
      if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
      return reply.type(asset.type).send(asset.body);
    },
  );
}
