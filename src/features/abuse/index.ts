import { feature } from '../../kernel/feature.ts';
import { lazyCommands, withDeps } from '../../terminal/command.ts';
import { ABUSE_FLAGS, ABUSE_USAGE } from './cli/abuse-usage.ts';
import type { AbuseServices } from './services.ts';

/**
 * Abuse defence (docs/api.md §13): the screen of blocklists and suspensions every redirect and
 * create asks, takedowns, reports and the audit log; `snip operator|link disable|blocklist|report …`.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    abuse: AbuseServices;
  }
}

export const abuseFeature = feature({
  name: 'abuse',
  ports: ['abuse', 'links', 'accounts', 'workspaces'],
  services: async (kernel, ports) => (await import('./services.ts')).abuseServices(kernel, ports),
  http: async () => (await import('./http.ts')).abuseHttp,
  cli: {
    flags: ABUSE_FLAGS,
    commands: lazyCommands(ABUSE_USAGE, async () =>
      withDeps(
        (await import('./cli/abuse-commands.ts')).ABUSE_COMMANDS,
        (await import('./cli/abuse-deps.ts')).abuseCliDeps,
      ),
    ),
  },
});

export * from './abuse-json.ts';
export type { AuditActor, AuditLog } from './audit-log.ts';
export { linkSearchOf } from './link-search.ts';
export type { AbuseServices } from './services.ts';
