import { ABUSE_CHANGED } from '../../core/link-key.ts';
import { joinPorts, type Ports } from '../../core/ports/store.ts';
import { blocklistFetcher } from '../../kernel/adapters.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { auditLog } from './audit-log.ts';
import { blocklistService } from './blocklists.ts';
import { reportService } from './reports.ts';
import { AbuseScreen } from './screen.ts';
import { takedowns } from './takedowns.ts';

/**
 * Abuse defence for this process (docs/api.md §13): the screen the redirect and the create checks
 * ask, read now and on every change heard (a takedown seen is told on the bus as
 * `takedowns.changed`); the operators' takedowns, blocklists and reports; the audit log; and, once
 * the server runs, the poll of the store's versions and the refresh of BLOCKLIST_URLS.
 */
export async function abuseServices(
  kernel: Kernel,
  ports: Pick<Ports, 'abuse' | 'links' | 'accounts' | 'workspaces'>,
) {
  const { config, linkEvents } = kernel;
  const domains = await kernel.use('domains');
  const { sink: events } = await kernel.use('webhooks');
  // Polled every second: timed, the poll would crowd the store's timings out of /metrics.
  const screen = new AbuseScreen(kernel.untimed(ports).abuse);
  screen.onTakedown(() => kernel.bus.emit('takedowns.changed', undefined));
  await screen.refresh();
  const readFailed = kernel.log.error(
    'reading blocklists and suspensions failed; the last ones read are kept',
  );
  // A store that is down is logged once, not every second until it is back.
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
  const store = joinPorts(ports);
  const audit = auditLog(store, kernel.log.error('writing the audit log failed'));
  const down = takedowns({ store, linkEvents, audit, events });
  const lists = blocklistFetcher(kernel);
  const blocklists = blocklistService({ store, linkEvents, audit, screen, fetchList: lists.fetch });
  const mailer = await kernel.mailer();
  const { reportEmail } = config.abuse;
  const reports = reportService({
    store,
    counter: kernel.counter,
    now: kernel.now,
    domainOf: (host) => domains.registry.served(host)?.id,
    takedowns: down,
    blocklists,
    audit,
    mail:
      mailer && reportEmail
        ? {
            mailer,
            to: reportEmail,
            baseUrl: config.baseUrl,
            onError: kernel.log.error('a report could not be mailed'),
          }
        : undefined,
  });
  kernel.onStart(() => startPolls(kernel, reread, blocklists));
  return { screen, audit, takedowns: down, blocklists, reports };
}

/** The poll of the store's versions, and every 10 minutes a look at BLOCKLIST_URLS. */
function startPolls(kernel: Kernel, reread: () => void, blocklists: ReturnType<typeof blocklistService>) {
  const { abuse } = kernel.config;
  const timers = [setInterval(reread, Math.min(1000, kernel.config.linkCacheTtlSeconds * 1000))];
  if (abuse.blocklistUrls.length > 0) {
    // Every instance looks every 10 minutes and fetches only a list older than BLOCKLIST_REFRESH_HOURS,
    // so a fleet fetches each about once per period, and a restart fetches nothing fresh.
    const keepMs = abuse.blocklistRefreshHours * 3_600_000 - 60_000;
    const refreshLists = () =>
      void blocklists
        .refresh({ actorId: null, actor: 'schedule' }, abuse.blocklistUrls, keepMs)
        .then((results) => {
          for (const failed of results.filter((result) => result.error))
            kernel.log.error(`refreshing the blocklist ${failed.url} failed`)(failed.error);
        }, kernel.log.error('refreshing the blocklists failed'));
    timers.push(setInterval(refreshLists, 10 * 60_000));
    timers.push(setTimeout(refreshLists, 1000));
  }
  for (const timer of timers) timer.unref();
  kernel.onClose(() => {
    for (const timer of timers) clearInterval(timer);
  });
}

export type AbuseServices = Awaited<ReturnType<typeof abuseServices>>;
