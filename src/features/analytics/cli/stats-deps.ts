import { joinPorts } from '../../../core/ports/store.ts';
import type { Given } from '../../../kernel/feature.ts';
import { domainOfCommand } from '../../domains/index.ts';
import type { StatsCliDeps } from './stats-command.ts';

/** `snip link stats` reads the store; `--domain` through the domains as the store has them. */
export async function statsCliDeps({
  kernel,
  ports,
}: Given<'links' | 'stats' | 'conversions'>): Promise<StatsCliDeps> {
  return {
    store: joinPorts(ports),
    retentionDays: kernel.config.analyticsRetentionDays,
    domainOf: (host) => domainOfCommand(kernel, host),
  };
}
