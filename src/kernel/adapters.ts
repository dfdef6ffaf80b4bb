import { eventSinks } from '../adapters/event-sinks.ts';
import { listFetcher } from '../adapters/inspect/fetch-list.ts';
import { createInspector } from '../adapters/inspect/inspector.ts';
import { LocalLiveClicks } from '../adapters/memory/live-clicks.ts';
import { MemoryVisitors } from '../adapters/memory/visitors.ts';
import { threadQrImages } from '../adapters/qr/qr-thread.ts';
import type { CountryLookup } from '../core/ports/geo.ts';
import type { IdentityProvider } from '../core/ports/identity-provider.ts';
import type { Inspector } from '../core/ports/inspector.ts';
import type { LiveClicks } from '../core/ports/live-clicks.ts';
import type { PaymentGateway } from '../core/ports/payments.ts';
import type { QrImages } from '../core/ports/qr-images.ts';
import type { Visitors } from '../core/ports/visitors.ts';
import { QR_DEFAULT_LOOK } from '../core/qr-design.ts';
import type { Kernel } from './kernel.ts';
import { timedInspector } from './metrics.ts';

/**
 * The adapters features ask the kernel for by their port: the one given by the process (a test's
 * fake) or the real one, made on first use and closed with the kernel. Features never import
 * adapters themselves.
 */

/** The SSRF-safe inspector of new targets; `blockedHost` is the operators' blocklist, asked per hop. */
export function inspectorOf(kernel: Kernel, blockedHost: (host: string) => boolean): Inspector {
  return timedInspector(kernel.given.inspector ?? ownInspector(kernel, blockedHost), kernel.metrics);
}

/** The real inspector, made on the first target it inspects. */
function ownInspector(kernel: Kernel, blockedHost: (host: string) => boolean): Inspector {
  let made: Inspector | undefined;
  kernel.onClose(async () => made?.close());
  return {
    inspect: (url) => {
      made ??= createInspector({ allowPrivate: kernel.config.allowPrivateTargets, blockedHost });
      return made.inspect(url);
    },
    close: async () => made?.close(),
  };
}

/** Fetches BLOCKLIST_URLS through the same address policy as targets. */
export function blocklistFetcher(kernel: Kernel): { fetch(url: string): Promise<string> } {
  const fetcher = listFetcher({ allowPrivate: kernel.config.allowPrivateTargets });
  kernel.onClose(() => fetcher.close());
  return fetcher;
}

/** Where events go: endpoints over HTTP through the address policy, and RabbitMQ when configured. */
export function eventSinksOf(kernel: Kernel) {
  return eventSinks({
    allowPrivate: kernel.config.allowPrivateTargets,
    amqpUrl: kernel.config.webhooks.amqpUrl,
    resolve: kernel.given.resolveWebhooks,
    onStreamError: kernel.log.error('the event stream failed; its events wait in the outbox'),
  });
}

/** QR images, drawn in a worker thread off the redirect's. */
export function qrImagesOf(kernel: Kernel): QrImages {
  const images = threadQrImages();
  kernel.onClose(() => images.close());
  return images;
}

/**
 * A small QR code drawn here, at once, as an image address (an SVG data URI): a page's own code
 * (the two-factor secret's), never a link's, which are drawn off the redirect's thread.
 */
export async function qrImageUri(text: string): Promise<string> {
  // Loaded on first use: most processes never draw one.
  const { drawSvg, qrModules } = await import('../adapters/qr/qr-draw.ts');
  const svg = drawSvg(qrModules(text, QR_DEFAULT_LOOK), 200, QR_DEFAULT_LOOK);
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * The OpenID provider of "Sign in with …", when OIDC_* is configured; its library is loaded by the
 * first sign-in with it, not at start (docs/adr/053).
 */
export function identityProviderOf(kernel: Kernel): IdentityProvider | undefined {
  const { oidc } = kernel.config;
  if (!oidc) return undefined;
  let made: Promise<IdentityProvider> | undefined;
  const provider = () =>
    (made ??= import('../adapters/oidc/oidc-client.ts').then(({ oidcClient }) => {
      const redirectUri = new URL('/auth/oidc/callback', kernel.config.baseUrl).href;
      const { issuer, clientId, clientSecret } = oidc;
      return oidcClient({ issuer, clientId, clientSecret, redirectUri });
    }));
  return {
    start: async () => (await provider()).start(),
    finish: async (callbackUrl, pending) => (await provider()).finish(callbackUrl, pending),
  };
}

/** Stripe, when STRIPE_SECRET_KEY is set; loaded only then. */
export async function paymentsOf(kernel: Kernel): Promise<PaymentGateway | undefined> {
  const { stripe } = kernel.config.billing;
  if (!stripe) return undefined;
  const { stripeGateway } = await import('../adapters/stripe/stripe-gateway.ts');
  return stripeGateway(stripe);
}

/** The country of a client address: what the process gave (the offline database), or none known. */
export function countriesOf(kernel: Kernel): CountryLookup {
  return kernel.given.countries ?? { countryOf: () => undefined };
}

/** The day's unique-visitor sets: Redis's for a fleet (given), else this process's own. */
export function visitorsOf(kernel: Kernel): Visitors {
  return kernel.given.visitors ?? new MemoryVisitors();
}

/** Clicks as they are recorded, to live listeners: Redis's for a fleet (given), else this process's own. */
export function liveClicksOf(kernel: Kernel): LiveClicks {
  const given = kernel.given.liveClicks;
  if (given) {
    // Closed with the other Redis state's users, before its connections.
    kernel.onClose(() => given.close());
    return given;
  }
  return new LocalLiveClicks();
}
