import { feature } from '../../kernel/feature.ts';
import { lazyCommands, withDeps } from '../../terminal/command.ts';
import { STATS_FLAGS, STATS_USAGE } from './cli/stats-usage.ts';
import type { AnalyticsServices } from './services.ts';

/**
 * Private visit analytics (docs/api.md §9): what a redirect records (collect/: the click buffer, the
 * visit log, the facts of each visit, visitor ids, retention), the stats read back through
 * /api/v1, the stats pages with their CSV, and `snip link stats`.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    analytics: AnalyticsServices;
  }
}

export const analyticsFeature = feature({
  name: 'analytics',
  ports: ['clicks', 'stats', 'links', 'groups', 'workspaces', 'abuse', 'conversions'],
  services: async (kernel, ports) => (await import('./services.ts')).analyticsServices(kernel, ports),
  on: {
    // The live view's clicks (docs/api.md §19): what the flush records, handed on; it answers nothing.
    'clicks.flushing': (analytics, events) => {
      analytics.live.heard(events);
      return undefined;
    },
  },
  http: async () => (await import('./http.ts')).analyticsHttp,
  cli: {
    flags: STATS_FLAGS,
    commands: lazyCommands(STATS_USAGE, async () =>
      withDeps(
        (await import('./cli/stats-command.ts')).STATS_COMMANDS,
        (await import('./cli/stats-deps.ts')).statsCliDeps,
      ),
    ),
  },
});

export type { ClickBuffer } from './collect/click-buffer.ts';
export type { DailyVisitor } from './collect/daily-visitor.ts';
export { type RawVisit, VisitFacts } from './collect/visit-facts.ts';
export { VisitLog } from './collect/visit-log.ts';
export type { VisitRecorder, VisitRequest } from './collect/visit-recorder.ts';
export { cameFromQr, clientAddress } from './collect/visit-recorder.ts';
