import { feature, withStore } from '../../kernel/feature.ts';
import { lazyCommands } from '../../terminal/command.ts';
import { OPS_USAGE } from './cli/ops-usage.ts';

/**
 * Operating Snip: GET /healthz, /readyz, /metrics, /openapi.json and its reference page, /docs;
 * `snip serve` (run by the process itself) and `snip migrate`.
 */
const { serve, ...usages } = OPS_USAGE;

export const opsFeature = feature({
  name: 'ops',
  ports: ['upkeep', 'accounts'],
  http: async () => (await import('./http.ts')).opsHttp,
  cli: {
    flags: { processes: { type: 'string' } },
    commands: {
      ...(serve ? { serve } : {}),
      ...lazyCommands(usages, async () => withStore((await import('./cli/ops-commands.ts')).OPS_COMMANDS)),
    },
  },
});
