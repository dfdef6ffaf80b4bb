import type { Ports } from '../../core/ports/store.ts';
import { countriesOf, qrImagesOf } from '../../kernel/adapters.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import type { DailyVisitor, VisitRecorder } from '../analytics/index.ts';
import { redirectCounters } from './redirect-counters.ts';
import { redirectPath } from './redirect-path.ts';
import { storeVisitLimits } from './visit-limits.ts';

/**
 * The redirect of this process: hot links in memory (every change heard from any instance, a new
 * link remembered on `link.created`, all forgotten on `takedowns.changed`), the answer that records
 * each visit through analytics, visit limits, QR images, and the counters every redirect moves.
 */
export async function redirectServices(kernel: Kernel, ports: Pick<Ports, 'links'>) {
  const { config } = kernel;
  const analytics = await kernel.use('analytics');
  const record: VisitRecorder = analytics.record;
  const visitor: DailyVisitor = analytics.visitor;
  const domains = await kernel.use('domains');
  const { screen } = await kernel.use('abuse');
  const { clickIds } = await kernel.use('conversions');
  const counted = redirectCounters(kernel.metrics, config.redirectStatus);
  const countries = countriesOf(kernel);
  const path = redirectPath({
    store: ports.links,
    embedded: kernel.opened(ports).links,
    linkEvents: kernel.linkEvents,
    domainOf: (host) => domains.registry.served(host),
    screen,
    cache: { max: config.linkCacheSize, ttlMs: config.linkCacheTtlSeconds * 1000 },
    record,
    onRedirect: counted.redirected,
    issue: (linkId, workspaceId, req, variant) => clickIds.issue(linkId, workspaceId, req, variant),
    redirectStatus: config.redirectStatus,
    https: config.baseUrl.protocol === 'https:',
    countries,
    socketIsClient: config.trustProxy === false,
    now: kernel.now,
    visitor,
  });
  return {
    ...path,
    counted,
    countries,
    visitor,
    limits: kernel.given.visitLimits ?? storeVisitLimits(ports.links),
    images: qrImagesOf(kernel),
  };
}

export type RedirectServices = Awaited<ReturnType<typeof redirectServices>>;
