import { ABUSE_CHANGED } from '../../core/link-key.ts';
import type { Mailer } from '../../core/ports/mailer.ts';
import type { LinkEvents, WindowCounter } from '../../core/ports/shared-state.ts';
import type { Store } from '../../core/ports/store.ts';
import { auditLog } from './audit-log.ts';
import { blocklistService } from './blocklists.ts';
import { reportService } from './reports.ts';
import type { AbuseScreen } from './screen.ts';
import { takedowns } from './takedowns.ts';

export * from './abuse-json.ts';
export { ABUSE_SCHEMAS } from './api/abuse-schemas.ts';
export { type AuditCursors, auditRoutes } from './api/audit-routes.ts';
export { reportApiRoutes, reportPages } from './api/report-routes.ts';
export { type AuditActor, type AuditLog, auditLog } from './audit-log.ts';
export { type BlocklistService, blocklistService, listNameOf } from './blocklists.ts';
export { linkSearchOf } from './link-search.ts';
export { REPORTS_PER_HOUR, type ReportInput, type ReportService } from './reports.ts';
export { AbuseScreen } from './screen.ts';
export { type LinkAddress, type Takedowns, takedowns } from './takedowns.ts';

export interface AbuseServicesOptions {
  store: Store;
  /** The screen the redirect and the inspector already hold; read here. */
  screen: AbuseScreen;
  linkEvents: Pick<LinkEvents, 'changed' | 'onChanged' | 'onMissed'>;
  counter: WindowCounter;
  now: () => number;
  /** How often the store's versions of rules and takedowns are polled besides each change heard. */
  pollMs: number;
  /** The domain a short URL's host is served on. */
  domainOf: (host: string) => number | undefined;
  /** BLOCKLIST_URLS, fetched through the SSRF-safe fetcher every `refreshHours`. */
  lists: { urls: readonly string[]; refreshHours: number; fetch: (url: string) => Promise<string> };
  mail?: { mailer: Mailer; to: string; baseUrl: URL };
  onError: (what: string) => (error: unknown) => void;
  /** Makes link.disabled in a takedown's transaction (docs/api.md §14). */
  events?: LinkEventSink;
}

export {
  ABUSE_COMMANDS,
  ABUSE_FLAGS,
  type AbuseCliDeps,
  type AbuseOperations,
} from './cli/abuse-commands.ts';

import type { LinkEventSink } from '../../core/ports/webhook-store.ts';

/** The operator's services without a screen or timers: what a command of `snip` acts through. */
export function abuseOperations(options: {
  store: Store;
  linkEvents: Pick<LinkEvents, 'changed'>;
  fetchList: (url: string) => Promise<string>;
  /** Reports' limits: the command line makes no reports, any counter does. */
  counter: WindowCounter;
  onError: (error: unknown) => void;
  events?: LinkEventSink;
}) {
  const { store, linkEvents, events } = options;
  const audit = auditLog(store, options.onError);
  const down = takedowns({ store, linkEvents, audit, events });
  const blocklists = blocklistService({ store, linkEvents, audit, fetchList: options.fetchList });
  const reports = reportService({
    store,
    counter: options.counter,
    now: Date.now,
    domainOf: () => undefined,
    takedowns: down,
    blocklists,
    audit,
  });
  return { audit, takedowns: down, blocklists, reports };
}

/**
 * Abuse defence for this process (docs/api.md §13): the screen the redirect and the create checks
 * ask, read now and on every change heard; the operators' takedowns, blocklists and reports; the
 * audit log; and the refresh of BLOCKLIST_URLS on its schedule (the first one soon after start).
 */
export async function abuseServices(options: AbuseServicesOptions) {
  const { store, linkEvents, screen } = options;
  await screen.refresh();
  // Polled every second: a store that is down is logged once, not every second until it is back.
  const readFailed = options.onError(
    'reading blocklists and suspensions failed; the last ones read are kept',
  );
  let failing = false;
  const reread = () =>
    void screen.refresh().then(
      () => {
        failing = false;
      },
      (error: unknown) => {
        if (!failing) readFailed(error);
        failing = true;
      },
    );
  linkEvents.onChanged((key) => {
    if (key === ABUSE_CHANGED) reread();
  });
  linkEvents.onMissed(reread);
  const audit = auditLog(store, options.onError('writing the audit log failed'));
  const down = takedowns({ store, linkEvents, audit, events: options.events });
  const blocklists = blocklistService({ store, linkEvents, audit, screen, fetchList: options.lists.fetch });
  const reports = reportService({
    store,
    counter: options.counter,
    now: options.now,
    domainOf: options.domainOf,
    takedowns: down,
    blocklists,
    audit,
    mail: options.mail && { ...options.mail, onError: options.onError('a report could not be mailed') },
  });
  const timers = [setInterval(reread, options.pollMs)];
  if (options.lists.urls.length > 0) {
    // Every instance looks every 10 minutes and fetches only a list older than BLOCKLIST_REFRESH_HOURS,
    // so a fleet fetches each about once per period, and a restart fetches nothing fresh.
    const keepMs = options.lists.refreshHours * 3_600_000 - 60_000;
    const refreshLists = () =>
      void blocklists
        .refresh({ actorId: null, actor: 'schedule' }, options.lists.urls, keepMs)
        .then((results) => {
          for (const failed of results.filter((result) => result.error))
            options.onError(`refreshing the blocklist ${failed.url} failed`)(failed.error);
        }, options.onError('refreshing the blocklists failed'));
    timers.push(setInterval(refreshLists, 10 * 60_000));
    timers.push(setTimeout(refreshLists, 1000));
  }
  for (const timer of timers) timer.unref();
  return {
    screen,
    audit,
    takedowns: down,
    blocklists,
    reports,
    stop: () => {
      for (const timer of timers) clearInterval(timer);
    },
  };
}

export type AbuseServices = Awaited<ReturnType<typeof abuseServices>>;
