import { resolveTxt } from 'node:dns/promises';
import { DOMAINS_CHANGED } from '../../core/link-key.ts';
import type { Ports } from '../../core/ports/store.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { claimDroppedNotice } from './domain-notices.ts';
import { DomainRegistry } from './domain-registry.ts';
import { domainsService } from './domains.ts';

/** How often expired claims are swept from the store; every instance sweeps, a repeat deletes nothing. */
const SWEEP_EVERY_MS = 3_600_000;

/**
 * The domains of this process: the registry the redirect reads and the service every surface
 * changes them through, loaded now, again on every change heard from any instance (or missed), and
 * at a steady interval once the server runs, which also sweeps the expired claims away.
 */
export async function domainServices(kernel: Kernel, ports: Pick<Ports, 'domains' | 'workspaces'>) {
  const { config } = kernel;
  const mailer = await kernel.mailer();
  const domains = domainsService({
    store: ports.domains,
    registry: new DomainRegistry(config.baseUrl, kernel.now),
    resolveTxt: kernel.given.resolveTxt ?? resolveTxt,
    announce: () => kernel.linkEvents.changed(DOMAINS_CHANGED),
    audit: kernel.audit,
    pendingMax: config.domainsPendingMax,
    claimDropped: claimDroppedNotice({
      store: ports.workspaces,
      audit: kernel.audit,
      mail: mailer && { mailer, baseUrl: config.baseUrl },
      onError: kernel.log.error('telling a workspace its domain claim was dropped failed'),
    }),
    now: kernel.now,
  });
  await domains.refresh();
  const reload = () =>
    void domains
      .refresh()
      .catch(kernel.log.error('reading the domains failed; the last ones known are kept'));
  kernel.linkEvents.onChanged((key) => {
    if (key === DOMAINS_CHANGED) reload();
  });
  kernel.linkEvents.onMissed(reload);
  const sweep = () =>
    void domains.purgeExpiredClaims().catch(kernel.log.error('sweeping expired domain claims failed'));
  kernel.onStart(() => {
    const timers = [
      setInterval(reload, config.linkCacheTtlSeconds * 1000),
      setInterval(sweep, SWEEP_EVERY_MS),
    ];
    for (const timer of timers) timer.unref();
    kernel.onClose(() => {
      for (const timer of timers) clearInterval(timer);
    });
  });
  return domains;
}
