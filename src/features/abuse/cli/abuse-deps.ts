import { shortUrl } from '../../../core/short-url.ts';
import type { Given } from '../../../kernel/feature.ts';
import { domainOfCommand } from '../../domains/index.ts';
import type { AbuseCliDeps } from './abuse-commands.ts';

/** The operator's abuse services, their changes announced to the running servers. */
export async function abuseCliDeps({ kernel }: Given): Promise<AbuseCliDeps> {
  return {
    withAbuse: async (use) => {
      await kernel.readyToAnnounce();
      const { takedowns, blocklists, reports } = await kernel.use('abuse');
      const { registry } = await kernel.use('domains');
      return use({ takedowns, blocklists, reports, shortUrl: (link) => shortUrl(registry, link) });
    },
    domainOf: (host) => domainOfCommand(kernel, host),
  };
}
