import { resolveTxt } from 'node:dns/promises';
import { DOMAINS_CHANGED } from '../../core/link-key.ts';
import type { Ports } from '../../core/ports/store.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { DomainRegistry } from './domain-registry.ts';
import { domainsService } from './domains.ts';

/**
 * The domains of this process: the registry the redirect reads and the service every surface
 * changes them through, loaded now, again on every change heard from any instance (or missed), and
 * at a steady interval once the server runs.
 */
export async function domainServices(kernel: Kernel, ports: Pick<Ports, 'domains'>) {
  const { config } = kernel;
  const domains = domainsService({
    store: ports.domains,
    registry: new DomainRegistry(config.baseUrl),
    resolveTxt: kernel.given.resolveTxt ?? resolveTxt,
    announce: () => kernel.linkEvents.changed(DOMAINS_CHANGED),
    audit: kernel.audit,
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
  kernel.onStart(() => {
    const timer = setInterval(reload, config.linkCacheTtlSeconds * 1000);
    timer.unref();
    kernel.onClose(() => clearInterval(timer));
  });
  return domains;
}
