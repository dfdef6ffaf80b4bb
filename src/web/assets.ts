import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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
  // The dashboard's list as one works in it: search as one types, filters, headings, keys.
  'link-list.js': here('link-list.js'),
  // A link's campaign fields and QR designer, and the page that creates many links at once.
  'link-tools.css': here('link-tools.css'),
  'link-fields.js': here('link-fields.js'),
  'qr-designer.js': here('qr-designer.js'),
  'link-bulk.js': here('link-bulk.js'),
  // A link's A/B test rows: each weight's per cent and their total (docs/api.md §20).
  'link-variants.js': here('link-variants.js'),
  // Visit stats and the charts (the dashboard's and the link page's too): bars, bar lists, the range picker.
  'stats.css': here('stats.css'),
  // The stats page's live panel (docs/api.md §19).
  'live-clicks.js': here('live-clicks.js'),
};

/** Country flags from flag-icons (MIT), 4:3, one SVG per ISO 3166 code: /assets/flags/<code>.svg. */
const FLAG_DIR = join(
  dirname(createRequire(import.meta.url).resolve('flag-icons/package.json')),
  'flags',
  '4x3',
);
const FLAG_CODES: ReadonlySet<string> = new Set(
  readdirSync(FLAG_DIR)
    .filter((name) => /^[a-z]{2}\.svg$/.test(name))
    .map((name) => name.slice(0, 2)),
);

/** Where the flag of a two-letter country code is served; undefined for a code without one. */
export function flagAsset(country: string): string | undefined {
  const code = country.toLowerCase();
  return FLAG_CODES.has(code) ? `/assets/flags/${code}.svg` : undefined;
}

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

function asset(body: Buffer, type: string): Asset {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

/**
 * Each file read the first time it is asked for, then kept: a server that never serves the API
 * reference does not hold its ~1 MB renderer (docs/adr/053). Module paths are resolved at start, so a
 * missing package still stops the server there.
 */
function assetsOf(files: AssetFiles): (name: string) => Asset | undefined {
  const resolve = createRequire(import.meta.url).resolve;
  const readers = new Map<string, () => Asset>();
  for (const [name, file] of Object.entries(files)) {
    const parts = (Array.isArray(file) ? file : [file]) as ReadonlyArray<
      URL | { module: string; edit?: (text: string) => string }
    >;
    const sources = parts.map((one) =>
      one instanceof URL ? { path: fileURLToPath(one) } : { ...one, path: resolve(one.module) },
    );
    readers.set(name, () => {
      const read = (one: { path: string; edit?: (text: string) => string }) => {
        const bytes = readFileSync(one.path);
        return one.edit ? Buffer.from(one.edit(bytes.toString('utf8'))) : bytes;
      };
      const type = ASSET_TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
      return asset(Buffer.concat(sources.map(read)), type);
    });
  }
  const read = new Map<string, Asset>();
  return (name) => {
    let found = read.get(name);
    if (found === undefined) {
      found = readers.get(name)?.();
      if (found !== undefined) read.set(name, found);
    }
    return found;
  };
}

function send(request: FastifyRequest, reply: FastifyReply, found: Asset | undefined) {
  if (!found) return reply.callNotFound();
  reply.header('etag', found.etag).header('cache-control', 'public, max-age=300');
  if (request.headers['if-none-match'] === found.etag) return reply.code(304).send();
  return reply.type(found.type).send(found.body);
}

export async function assetRoutes(app: FastifyInstance, options: { files: AssetFiles }): Promise<void> {
  const assetOf = assetsOf(options.files);
  // Some 250 flags, most never shown: each is read the first time it is asked for.
  const flags = new Map<string, Promise<Asset>>();
  const flag = (code: string) => {
    let found = flags.get(code);
    if (!found) {
      found = readFile(join(FLAG_DIR, `${code}.svg`)).then((body) =>
        asset(body, ASSET_TYPES['.svg'] as string),
      );
      flags.set(code, found);
    }
    return found;
  };
  const route = { schema: { hide: true }, config: { anyPath: true } };

  app.get<{ Params: { name: string } }>('/assets/:name', route, async (request, reply) =>
    send(request, reply, assetOf(request.params.name)),
  );

  app.get<{ Params: { name: string } }>('/assets/flags/:name', route, async (request, reply) => {
    const code = /^([a-z]{2})\.svg$/.exec(request.params.name)?.[1];
    return send(request, reply, code && FLAG_CODES.has(code) ? await flag(code) : undefined);
  });
}
