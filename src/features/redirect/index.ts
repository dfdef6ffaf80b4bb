import { feature } from '../../kernel/feature.ts';
import type { RedirectServices } from './services.ts';

/**
 * GET /<code>: the hot path below the router, the route for cold codes and links with rules, the
 * link cache, QR codes, the password and preview pages.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    redirect: RedirectServices;
  }
}

export const redirectFeature = feature({
  name: 'redirect',
  ports: ['links'],
  services: async (kernel, ports) => (await import('./services.ts')).redirectServices(kernel, ports),
  on: {
    // A new link is remembered at once: its code may have been asked for and cached as unknown.
    'link.created': ({ remember }, link) => remember(link),
    'takedowns.changed': ({ cache }) => cache.clear(),
  },
  http: async () => (await import('./http.ts')).redirectHttp,
});

export type { LinkScreen } from './fast-path.ts';
export type { LinkCache } from './link-cache.ts';
