import { randomBytes } from 'node:crypto';
import { DAY_MS, dayText } from '../../core/days.ts';
import type { Inspector } from '../../core/ports/inspector.ts';
import type { KeyAuthenticator } from '../../core/ports/key-auth.ts';
import { joinPorts, type Ports } from '../../core/ports/store.ts';
import { socialMatcher } from '../../core/social.ts';
import { inspectorOf } from '../../kernel/adapters.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { type AbTestScheduler, abTestScheduler } from './ab-tests.ts';
import { type PageCursors, pageCursors } from './api/cursor.ts';
import { type LinksApi, linksApi } from './api/links-api.ts';
import { type BulkLinks, bulkLinks } from './bulk-links.ts';
import { type CreateLinkService, type CreateLinkStore, createLinkService } from './create-link.ts';
import { linkEditor } from './edit-link.ts';
import { InFlight } from './in-flight.ts';
import type { LinkEditor } from './link-requests.ts';
import { type DashboardService, dashboardService } from './pages/dashboard.ts';

/** What a create service other than the live one is made over. */
export interface CreatorParts {
  store?: CreateLinkStore;
  keys?: KeyAuthenticator;
  inspector?: Inspector;
  /** Nothing told of new links, in the outbox or on the bus (the demo stores none; an import is silent). */
  quiet?: true;
}

export interface LinkServices {
  /** The create service of /create, /api/v1 and the dashboard. */
  live: CreateLinkService;
  /** A create service over another store, keys or inspector (the demo's; an import's). */
  creator(parts: CreatorParts): CreateLinkService;
  editor: LinkEditor;
  cursors: PageCursors;
  /** Requests still under way, which a shutdown waits for. */
  inFlight: InFlight;
  api: LinksApi;
  bulk: BulkLinks;
  dashboard: DashboardService;
  /** The end of A/B tests: the winner applied once the end has come (docs/api.md §20.x). */
  abTests: AbTestScheduler;
}

/**
 * Links for this process: the create service of POST /create, /api/v1, the dashboard and `snip
 * link import` (every check of docs/api.md §2.3, in order; each new link told on `link.created`),
 * the editor, the /api/v1 resources one by one and in bulk, the dashboard, and the requests still
 * under way, which a shutdown waits for.
 */
export async function linkServices(
  kernel: Kernel,
  ports: Pick<Ports, 'links' | 'groups' | 'secrets' | 'clicks' | 'keys' | 'tags' | 'abTests' | 'conversions'>,
): Promise<LinkServices> {
  const { config, counter, now } = kernel;
  const store = joinPorts(ports);
  const { keys } = await kernel.use('workspaces');
  const domains = await kernel.use('domains');
  const { screen } = await kernel.use('abuse');
  const { sink: events } = await kernel.use('webhooks');
  const inspector = inspectorOf(kernel, (host) => screen.blocksHost(host));
  const checks = {
    counter,
    now,
    domains,
    isBlocked: (host: string) => screen.blocksHost(host),
    isSuspended: (workspaceId: number) => screen.isSuspended(workspaceId),
    events,
    isSocial: socialMatcher(config.socialDomains),
    baseUrl: config.baseUrl,
  };
  const inFlight = new InFlight();
  kernel.onClose(() => inFlight.settled());
  const creator = (parts: CreatorParts) =>
    inFlight.trackAll(
      createLinkService({
        ...checks,
        events: parts.quiet ? undefined : events,
        store: parts.store ?? store,
        keys: parts.keys ?? keys,
        inspector: parts.inspector ?? inspector,
        onCreated: parts.quiet ? undefined : (link) => kernel.bus.emit('link.created', link),
      }),
    );
  const live = creator({});
  const editor = linkEditor({ ...checks, store, inspector, linkEvents: kernel.linkEvents });
  const cursors = pageCursors(await store.secret('page-cursors', randomBytes(32)));
  const api = linksApi({
    store,
    createLinkAs: live.createAs,
    editor,
    cursors,
    origins: domains.registry,
    domainOf: domains.addressed,
    now,
  });
  const abTests = abTestScheduler({
    store: joinPorts({ links: ports.links, abTests: ports.abTests }),
    events,
    linkEvents: kernel.linkEvents,
    audit: kernel.audit,
    // Leads and sales per variant since the test's first day (docs/adr/045, 046); the ones still
    // pending are folded first, so every lead and sale answered counts.
    conversions: async (link, fromDay) => {
      while ((await ports.conversions.foldConversions(1000)) === 1000);
      const toDay = dayText(Math.floor(now() / DAY_MS));
      const rows = await ports.conversions.variantConversions(link.id, dayText(fromDay), toDay);
      return new Map(rows.map((row) => [Number(row.variant), { leads: row.leads, sales: row.sales }]));
    },
    now,
    onError: kernel.log.error('applying an ended A/B test failed; tried again later'),
  });
  kernel.onStart(() => abTests.start());
  kernel.onClose(() => abTests.stop());
  return {
    abTests,
    live,
    creator,
    editor,
    cursors,
    inFlight,
    api,
    bulk: bulkLinks({ api, counter, domainOf: domains.addressed, now, groups: store }),
    dashboard: dashboardService({ store, counter, now }),
  };
}
