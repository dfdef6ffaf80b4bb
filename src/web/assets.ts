import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/**
 * Static files served from /assets/ under the names pages use: pages load nothing from elsewhere.
 * A file is a URL (the features' own scripts and styles), several URLs served as one file (the
 * design system's style sheets, kept small apart), or an npm module path (vendored libraries),
 * optionally edited once as text when it is read (e.g. to drop a request to another host).
 */
export type AssetFiles = Readonly<
  Record<string, URL | readonly URL[] | { module: string; edit?: (text: string) => string }>
>;

const here = (name: string) => new URL(`./assets/${name}`, import.meta.url);

/** The design system: tokens, the page frame, controls and components, as one style sheet; the icon. */
export const WEB_ASSETS: AssetFiles = {
  'snip.css': ['tokens.css', 'frame.css', 'controls.css', 'components.css'].map(here),
  'favicon.svg': here('favicon.svg'),
  // Every signed-in page: its layout, the copy buttons, the menus and the confirmations.
  'dashboard.css': here('dashboard.css'),
  'dashboard.js': here('dashboard.js'),
  // A link's campaign fields and QR designer, and the page that creates many links at once.
  'link-tools.css': here('link-tools.css'),
  'link-fields.js': here('link-fields.js'),
  'qr-designer.js': here('qr-designer.js'),
  'link-bulk.js': here('link-bulk.js'),
};

const ASSET_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

/** Read once at start. */
function loadAssets(files: AssetFiles): Map<string, Asset> {
  const resolve = createRequire(import.meta.url).resolve;
  const assets = new Map<string, Asset>();
  for (const [name, file] of Object.entries(files)) {
    const read = (one: URL | { module: string; edit?: (text: string) => string }) => {
      if (one instanceof URL) return readFileSync(fileURLToPath(one));
      const bytes = readFileSync(resolve(one.module));
      return one.edit ? Buffer.from(one.edit(bytes.toString('utf8'))) : bytes;
    };
    const body = Buffer.concat((Array.isArray(file) ? file : [file]).map(read));
    const type = ASSET_TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
    assets.set(name, {
      body,
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    });
  }
  return assets;
}

export async function assetRoutes(app: FastifyInstance, options: { files: AssetFiles }): Promise<void> {
  const assets = loadAssets(options.files);

  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { schema: { hide: true }, config: { anyPath: true } },
    async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) return reply.callNotFound();
      reply.header('etag', asset.etag).header('cache-control', 'public, max-age=300');
      if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
      return reply.type(asset.type).send(asset.body);
    },
  );
}
