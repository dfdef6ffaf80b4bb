import type { Link } from '../../core/entities.ts';
import { type LinkHealth, nextHealth } from '../../core/link-health.ts';
import type { HealthStore } from '../../core/ports/health-store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { type CheckDeps, checkLink } from './check-link.ts';

/**
 * The rounds of link health (docs/api.md §21, docs/adr/048): every poll places new links in the
 * round (a time within LINK_CHECK_HOURS, spread by id), claims the due ones this instance may
 * check within LINK_CHECKS_PER_MINUTE (a lease per link, so a fleet checks each once a round) and
 * checks each through its host's queue, off the redirect's path; each outcome is written through
 * the store's write queue with its event.
 */

export interface SchedulerDeps extends CheckDeps {
  store: HealthStore;
  /** Ends the waits of checks queued for their host's turn (a shutdown). */
  cancelWaits?: () => void;
  events?: LinkEventSink;
  now: () => number;
  periodMs: number;
  /** 0: no rounds (checks asked for through the API still run). */
  perMinute: number;
  onError: (error: unknown) => void;
  /** Each check's outcome, for /metrics. */
  counted?: (outcome: string) => void;
  pollMs?: number;
  leaseMs?: number;
}

const PLACED_PER_POLL = 1_000;

/** A check asked for now goes at once, as a create's inspection does. */
const UNPACED = { run: <T>(_host: string, work: () => Promise<T>) => work() };

/** A link that answers 410 (disabled, past its expiry, out of clicks) is not checked. */
function answersGone(link: Link, now: number): boolean {
  if (link.disabled) return true;
  if (link.expiresAt && link.expiresAt.getTime() <= now) return true;
  return link.maxClicks !== null && link.limitUsed >= link.maxClicks;
}

export function healthScheduler(deps: SchedulerDeps) {
  const pollMs = deps.pollMs ?? 10_000;
  const leaseMs = deps.leaseMs ?? 15 * 60_000;
  const counted = deps.counted ?? (() => {});
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<Promise<void>[]> | undefined;
  /** Checks this instance may still start: refilled each poll, one poll's worth carried at most. */
  let allowance = 0;
  let oldestDueSeconds = 0;
  let stopping = false;

  /** Checks the link, writes the outcome and its event; the link as written, else undefined. */
  async function check(link: Link, paced = true): Promise<Link | undefined> {
    const now = deps.now();
    const result = await checkLink(paced ? deps : { ...deps, pacer: UNPACED }, link);
    const step = nextHealth(link.health, result, deps.now());
    const written = await deps.store.recordCheck(link, step, now + deps.periodMs, deps.events);
    counted(result.code ?? 'ok');
    return written;
  }

  async function checkClaimed(link: Link): Promise<void> {
    try {
      if (answersGone(link, deps.now())) {
        await deps.store.skipCheck(link.id, deps.now() + deps.periodMs);
        counted('skipped');
      } else await check(link);
    } catch (error) {
      // The lease runs out and a later poll (here or elsewhere) tries it again; a shutdown's
      // cancelled waits are no failure.
      if (stopping) return;
      counted('failed');
      deps.onError(error);
    }
  }

  async function poll(): Promise<Promise<void>[]> {
    const now = deps.now();
    await deps.store.placeLinksForChecks(now, deps.periodMs, PLACED_PER_POLL);
    const perPoll = (deps.perMinute * pollMs) / 60_000;
    allowance = Math.min(allowance + perPoll, Math.max(1, perPoll));
    // Never more waiting here than two minutes' worth: a lease must outlast its link's turn.
    const room = Math.max(0, 2 * deps.perMinute - inFlight.size);
    const limit = Math.min(Math.floor(allowance), room);
    const claimed = limit > 0 ? await deps.store.claimDueChecks(now, limit, leaseMs) : [];
    allowance -= claimed.length;
    const oldest = await deps.store.oldestDueCheck(now);
    oldestDueSeconds = oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000);
    return claimed.map((link) => {
      const done = checkClaimed(link).finally(() => inFlight.delete(done));
      inFlight.add(done);
      return done;
    });
  }

  /** One poll now; a poll under way is joined rather than doubled. Resolves with its checks begun. */
  function pollOnce(): Promise<Promise<void>[]> {
    polling ??= poll().finally(() => {
      polling = undefined;
    });
    return polling;
  }

  return {
    /**
     * One poll as of now and its checks to their end (tests, with their own clock); how many links
     * it claimed. A poll under way (the timer's) began at an earlier moment: it is waited for, not
     * joined, and the checks it began are waited for too.
     */
    async runOnce(): Promise<number> {
      while (polling) await polling.catch(() => undefined);
      const begun = await pollOnce();
      await Promise.all([...begun, ...inFlight]);
      return begun.length;
    },
    /** Checks the link now, outside the rounds and their pacing (POST …/check); its health after. */
    async checkNow(link: Link): Promise<LinkHealth> {
      return (await check(link, false))?.health ?? link.health;
    },
    queued: () => inFlight.size,
    oldestDueSeconds: () => oldestDueSeconds,
    start(): void {
      if (deps.perMinute <= 0 || timer) return;
      stopping = false;
      timer = setInterval(() => {
        pollOnce().catch(deps.onError);
      }, pollMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      stopping = true;
      deps.cancelWaits?.();
      await polling?.catch(() => undefined);
      await Promise.allSettled([...inFlight]);
    },
  };
}

export type HealthScheduler = ReturnType<typeof healthScheduler>;
