import type { Given } from '../../../kernel/feature.ts';
import { domainOfCommand } from '../../domains/index.ts';
import type { StatsCliDeps } from './stats-command.ts';

/** `snip link stats` reads the store; `--domain` through the domains as the store has them. */
export async function statsCliDeps({ kernel }: Given): Promise<StatsCliDeps> {
  return {
    store: kernel.store,
    retentionDays: kernel.config.analyticsRetentionDays,
    domainOf: (host) => domainOfCommand(kernel, host),
  };
}
