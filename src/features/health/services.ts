import { healthReason } from '../../core/link-health.ts';
import { joinPorts, type Ports } from '../../core/ports/store.ts';
import { socialMatcher } from '../../core/social.ts';
import { inspectorOf } from '../../kernel/adapters.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { type HealthDigest, healthDigest } from './digest-mail.ts';
import { healthMetrics } from './health-metrics.ts';
import { hostPacer, realClock } from './host-pacer.ts';
import { type HealthScheduler, healthScheduler } from './scheduler.ts';

/** How often an instance looks for digests to send; each workspace gets at most one a day. */
const DIGEST_POLL_MS = 15 * 60_000;

export interface HealthServices {
  scheduler: HealthScheduler;
  digest: HealthDigest;
  /** Live broken links per workspace, for the operator's console (one query on either store). */
  brokenLinksPerWorkspace: () => Promise<Map<number, number>>;
  /** The person's choice of the daily mail of newly broken links, and its change (audited). */
  mail: {
    isOn(userId: number): Promise<boolean>;
    set(user: { id: number; email: string }, on: boolean): Promise<void>;
  };
  reason: typeof healthReason;
}

/**
 * Link health for this process (docs/api.md §21, docs/adr/048): the rounds of checks (begun with
 * the server, LINK_CHECKS_PER_MINUTE=0 leaves them off), the checks asked for now, the daily
 * digest mail, and the reads other surfaces show.
 */
export async function healthServices(
  kernel: Kernel,
  ports: Pick<Ports, 'health' | 'links' | 'workspaces'>,
): Promise<HealthServices> {
  const { config, now } = kernel;
  const store = joinPorts(ports);
  const { screen } = await kernel.use('abuse');
  const { sink: events } = await kernel.use('webhooks');
  const domains = await kernel.use('domains');
  const isBlocked = (host: string) => screen.blocksHost(host);
  const inspector = inspectorOf(kernel, isBlocked);
  // The kernel's clock (a test's own), with real waits.
  const pacer = hostPacer({ now, wait: realClock.wait });
  let scheduler: HealthScheduler | undefined;
  const counted = healthMetrics(kernel.metrics, {
    queued: () => scheduler?.queued() ?? 0,
    oldestDueSeconds: () => scheduler?.oldestDueSeconds() ?? 0,
  });
  scheduler = healthScheduler({
    store,
    events,
    inspector,
    isSocial: socialMatcher(config.socialDomains),
    isBlocked,
    pacer,
    cancelWaits: () => pacer.cancel(),
    now,
    periodMs: config.linkCheckHours * 3_600_000,
    perMinute: config.linkChecksPerMinute,
    counted,
    onError: kernel.log.error('a link health check failed; tried again later'),
  });
  const digest = healthDigest({
    store,
    mailer: () => kernel.mailer(),
    origins: domains.registry,
    baseUrl: config.baseUrl,
    now,
    onError: kernel.log.error('the daily mail of broken links failed; tried again later'),
  });
  let digestTimer: NodeJS.Timeout | undefined;
  const started = scheduler;
  kernel.onStart(() => {
    started.start();
    if (config.linkChecksPerMinute > 0 && config.mail) {
      digestTimer = setInterval(() => {
        digest.runOnce().catch(kernel.log.error('the daily mail of broken links failed'));
      }, DIGEST_POLL_MS);
      digestTimer.unref();
    }
  });
  kernel.onClose(async () => {
    clearInterval(digestTimer);
    await started.stop();
  });
  return {
    scheduler: started,
    digest,
    brokenLinksPerWorkspace: () => store.brokenLinksPerWorkspace(),
    mail: {
      isOn: (userId) => store.healthMailOn(userId),
      async set(user, on) {
        const before = await store.healthMailOn(user.id);
        if (before === on) return;
        await store.setHealthMail(user.id, on);
        await kernel.audit({
          actorId: user.id,
          actor: user.email,
          workspaceId: null,
          action: 'account.health-mail',
          target: user.email,
          before: { health_mail: before },
          after: { health_mail: on },
        });
      },
    },
    reason: healthReason,
  };
}
