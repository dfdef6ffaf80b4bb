import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { pagePolicy } from '../../http/security-headers.ts';
import type { Frame, FrameOf } from '../../web/frame.ts';
import { html } from '../../web/html.ts';
import { page } from '../../web/layout.ts';
import { answerErrorsAsPages } from '../../web/page-errors.ts';
import { sendPage } from '../../web/send-page.ts';

/**
 * GET /docs: /openapi.json as a readable reference, rendered in the browser by Redoc, served from
 * /assets like every other script. Redoc writes its styles as <style> elements, so this one answer
 * allows style elements carrying a nonce made for it; everything else keeps the site's policy.
 */

const REDOC_BUNDLE = 'redoc/bundles/redoc.standalone.js';

/**
 * The bundle as the npm package ships it, with two edits, each made where the pinned version has
 * exactly one match (a new version that moved them fails at start, not quietly):
 * - its style loader takes the nonce from window.__webpack_nonce__ (which docs.js sets before the
 *   bundle runs), so even the styles it writes while loading carry the nonce;
 * - its sidebar badge is an empty data: URL instead of an image on its vendor's CDN: the image fails
 *   to decode at once and Redoc hides it (its own fallback), keeping the text link, and the page
 *   makes no request to another host.
 */
const EDITS: ReadonlyArray<readonly [string, string]> = [
  ['r.nc=void 0;', 'r.nc=self.__webpack_nonce__;'],
  ['src:"https://cdn.redoc.ly/redoc/logo-mini.svg"', 'src:"data:,"'],
];

export function redocForSnip(bundle: string): string {
  return EDITS.reduce((text, [from, to]) => {
    if (text.split(from).length !== 2) {
      throw new Error(`${REDOC_BUNDLE} does not contain ${from} exactly once; review redocForSnip()`);
    }
    return text.replace(from, to);
  }, bundle);
}

export const DOCS_ASSETS = {
  'redoc.standalone.js': { module: REDOC_BUNDLE, edit: redocForSnip },
  'docs.js': new URL('./assets/docs.js', import.meta.url),
  'docs.css': new URL('./assets/docs.css', import.meta.url),
} as const;

export function docsPage(styleNonce: string, frame?: Frame): string {
  return page({
    chrome: 'site',
    title: 'API reference',
    documentTitle: 'Snip API reference',
    description: 'The Snip API: POST /create, the management API under /api/v1, the demo and the probes.',
    current: '/docs',
    wide: true,
    styles: ['docs.css'],
    styleNonce,
    frame: frame,
    // docs.js hands Redoc the nonce before the bundle runs.
    scripts: ['docs.js', 'redoc.standalone.js'],
    body: html`<div id="redoc" data-spec-url="/openapi.json"><p class="docs-loading">Loading the API reference… It is also available as <a href="/openapi.json">the OpenAPI description</a> for your tools.</p></div>
<noscript><p class="docs-loading">The API reference needs JavaScript. <a href="/openapi.json">The OpenAPI description</a> reads without it.</p></noscript>`,
  });
}

export interface DocsRouteOptions {
  /** Who is signed in, for the navigation; signed out when not given. */
  frameOf?: FrameOf;
}

export async function docsRoute(app: FastifyInstance, options: DocsRouteOptions): Promise<void> {
  answerErrorsAsPages(app);
  app.get('/docs', { schema: { hide: true } }, async (request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    reply.header('content-security-policy', pagePolicy({ styleNonce: nonce }));
    return sendPage(reply, 200, docsPage(nonce, await options.frameOf?.(request)));
  });
}
