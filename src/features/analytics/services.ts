import { joinPorts, type Ports } from '../../core/ports/store.ts';
import { countriesOf, liveClicksOf, visitorsOf } from '../../kernel/adapters.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { visitCollection } from './collect/collection.ts';
import { dailyVisitor } from './collect/daily-visitor.ts';
import { liveFeed } from './live/live-feed.ts';
import { LiveStreams } from './live/live-streams.ts';
import { publicStats } from './public/public-stats.ts';
import { visitStats } from './visit-stats.ts';

/**
 * Private visit analytics (docs/api.md §9) for this process: the click buffer every redirect
 * records into and its flushes (what is written with each flush is asked on `clicks.flushing`),
 * the hourly sweep of raw events, and the stats read back.
 */
export async function analyticsServices(
  kernel: Kernel,
  ports: Pick<Ports, 'clicks' | 'stats' | 'links' | 'groups' | 'workspaces' | 'abuse' | 'conversions'>,
) {
  const { config, bus } = kernel;
  const store = joinPorts(ports);
  const visitors = visitorsOf(kernel);
  const collection = visitCollection({
    store,
    tracking: config.tracking,
    honorDnt: config.honorDnt,
    exclude: config.trackingExclude,
    trustProxy: config.trustProxy,
    now: kernel.now,
    flushMs: config.clickFlushMs,
    retentionDays: config.analyticsRetentionDays,
    visitors,
    countries: countriesOf(kernel),
    onFlushError: kernel.log.error('writing clicks failed; kept for the next flush'),
    onSweepError: kernel.log.error('deleting old click events failed'),
    notices: async (events) =>
      (await bus.ask('clicks.flushing', events)).find((notices) => notices !== undefined),
  });
  kernel.onStart(() => collection.sweep.start());
  // What is buffered is written before the store closes.
  kernel.onClose(async () => {
    collection.sweep.stop();
    await collection.clicks.close();
  });
  const domains = await kernel.use('domains');
  const stats = visitStats({
    store,
    now: kernel.now,
    retentionDays: config.analyticsRetentionDays,
    domainOf: domains.addressed,
  });
  const { registry } = await kernel.use('domains');
  const shown = publicStats({
    store: ports.links,
    stats,
    origins: registry,
    linkEvents: kernel.linkEvents,
    now: kernel.now,
  });
  // The visitor of today the redirect splits A/B tests by: the collector's own secret of the day.
  const visitor = dailyVisitor(visitors, { trustProxy: config.trustProxy, now: kernel.now });
  return { ...collection, stats, live: await liveView(kernel, ports), publicStats: shown, visitor };
}

/**
 * The live view (docs/api.md §19): the recorded clicks of each flush handed to the workspace's
 * streams, here and (with REDIS_URL) on every instance.
 */
async function liveView(kernel: Kernel, ports: Pick<Ports, 'abuse'>) {
  const clicks = liveClicksOf(kernel);
  const { registry } = await kernel.use('domains');
  const feed = liveFeed({ clicks, store: ports.abuse, origins: registry, now: kernel.now });
  const streams = new LiveStreams({
    clicks,
    heartbeatMs: kernel.config.sseHeartbeatSeconds * 1000,
    maxMs: kernel.config.sseMaxSeconds * 1000,
  });
  kernel.onClose(() => streams.endAll());
  const onError = kernel.log.error('handing clicks to the live view failed');
  /** What a flush is about to write, handed on without holding the flush up. */
  const heard = (events: Parameters<typeof feed>[0]) => void feed(events).catch(onError);
  return { clicks, streams, heard };
}

export type AnalyticsServices = Awaited<ReturnType<typeof analyticsServices>>;
