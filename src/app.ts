import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { PortName, Ports } from './core/ports/store.ts';
import { FEATURES } from './features.ts';
import { logAccess } from './http/access-log.ts';
import { registerBodyParsers } from './http/body-parsers.ts';
import { refuseUnreadableInput } from './http/edge-input.ts';
import { addSecurityHeaders } from './http/security-headers.ts';
import { serverOptions } from './http/server-options.ts';
import type { FeatureHttp } from './kernel/feature.ts';
import { type Kernel, type KernelDeps, openKernel } from './kernel/kernel.ts';
import { assetRoutes, WEB_ASSETS } from './web/assets.ts';
import { compressPages } from './web/compress-pages.ts';
import { useThemes } from './web/theme.ts';

/** What the process (or a test) gives the server. */
export interface AppDeps extends KernelDeps {
  /**
   * When the background work (the webhook dispatcher, schedulers, polls) begins: once built (tests
   * that inject), or once the server listens — a process that cannot listen never starts it.
   */
  background?: 'when-built' | 'when-listening';
}

type Below = NonNullable<Awaited<ReturnType<NonNullable<FeatureHttp['belowRouter']>>>>;

/** A feature's surfaces, with the ports its descriptor declared. */
interface Surfaces {
  http: FeatureHttp<PortName>;
  ports: Ports;
}

/** The Fastify server, a feature's answer below the router in front of it; it never listens here. */
function server(kernel: Kernel, below: Below | undefined, quiet: ReadonlySet<string>): FastifyInstance {
  const { config } = kernel;
  let debugBelow = false;
  const app: FastifyInstance = Fastify(
    serverOptions({
      trustProxy: config.trustProxy,
      logger: kernel.given.logger,
      maxConnections: config.maxConnections,
      beforeRouter: (req, res) => {
        if (!below?.(req, res)) return false;
        if (debugBelow)
          app.log.debug({ method: req.method, route: '/:code', status: res.statusCode }, 'request');
        return true;
      },
    }),
  );
  kernel.log.bind(app.log);
  debugBelow = ['debug', 'trace'].includes(app.log.level);
  addSecurityHeaders(app, { https: config.baseUrl.protocol === 'https:' });
  logAccess(app, { quiet });
  // In order: requests in flight, then what is buffered, then the connections.
  app.addHook('onClose', () => kernel.close());
  return app;
}

/**
 * Builds the whole application without listening; tests call inject() on it. Every feature of the
 * registry is built through the kernel, then each kind of surface is registered in the registry's
 * order: plugins that watch routes, schemas, the /api/v1 scope and its resources, pages, assets,
 * and the routes on the root.
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const kernel = openKernel(config, deps, FEATURES, 'server');
  try {
    await kernel.useAll();
    const surfaces: Surfaces[] = [];
    for (const feature of FEATURES) {
      const http = await feature.http?.();
      if (http) surfaces.push({ http, ports: kernel.portsOf(feature) });
    }
    const belows = await Promise.all(surfaces.map(({ http }) => http.belowRouter?.(kernel)));
    const quiet = new Set(surfaces.flatMap(({ http }) => http.quiet ?? []));
    const app = server(
      kernel,
      belows.find((below) => below !== undefined),
      quiet,
    );
    await registerBodyParsers(app);
    refuseUnreadableInput(app);
    await app.register(cookie);
    // Before any page is registered: its hook marks every page with the chosen theme.
    useThemes(app, { https: config.baseUrl.protocol === 'https:' });
    // After the theme's hook: what goes gzipped is the page as the theme left it.
    compressPages(app);
    for (const { http, ports } of surfaces) await http.early?.(app, kernel, ports);
    for (const { http } of surfaces) for (const schema of http.schemas ?? []) app.addSchema(schema);
    await app.register(
      async (v1) => {
        for (const { http, ports } of surfaces) await http.apiScope?.(v1, kernel, ports);
        for (const { http, ports } of surfaces) await http.api?.(v1, kernel, ports);
      },
      { prefix: '/api/v1' },
    );
    for (const { http, ports } of surfaces) await http.pages?.(app, kernel, ports);
    const files = Object.assign({}, WEB_ASSETS, ...surfaces.map(({ http }) => http.assets ?? {}));
    await app.register(assetRoutes, { files });
    for (const { http, ports } of surfaces) await http.routes?.(app, kernel, ports);
    if (deps.background === 'when-listening') app.addHook('onListen', () => kernel.start());
    else await kernel.start();
    return app;
  } catch (error) {
    await kernel.close();
    throw error;
  }
}
