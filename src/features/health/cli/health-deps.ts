import type { Given } from '../../../kernel/feature.ts';
import { domainOfCommand } from '../../domains/index.ts';
import type { HealthCliDeps } from './health-commands.ts';

/** `snip link check`'s services: the store's look-up, the domains, the check of the server. */
export async function healthCliDeps({ kernel, ports }: Given<'links'>): Promise<HealthCliDeps> {
  return {
    findLink: (domainId, code) => ports.links.findLinkByCode(domainId, code),
    domainOf: (host) => domainOfCommand(kernel, host),
    checkNow: async (link) => (await kernel.use('health')).scheduler.checkNow(link),
  };
}
