import { feature } from '../../kernel/feature.ts';
import { lazyCommands, withDeps } from '../../terminal/command.ts';
import { HEALTH_FLAGS, HEALTH_USAGE } from './cli/health-usage.ts';
import type { HealthServices } from './services.ts';

/**
 * Link health (docs/api.md §21): every live link's targets checked again on a schedule by the
 * create's own inspector, a link broken after two failures in a row, link.broken and
 * link.recovered, a daily mail of newly broken links, POST /api/v1/links/{code}/check and
 * `snip link check`.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    health: HealthServices;
  }
}

export const healthFeature = feature({
  name: 'health',
  ports: ['health', 'links', 'workspaces'],
  services: async (kernel, ports) => (await import('./services.ts')).healthServices(kernel, ports),
  http: async () => (await import('./http.ts')).healthHttp,
  cli: {
    flags: HEALTH_FLAGS,
    commands: lazyCommands(HEALTH_USAGE, async () =>
      withDeps(
        (await import('./cli/health-commands.ts')).HEALTH_COMMANDS,
        (await import('./cli/health-deps.ts')).healthCliDeps,
      ),
    ),
  },
});
