import { DAY_MS } from '../../core/days.ts';
import type { Link } from '../../core/entities.ts';
import { linkKey } from '../../core/link-key.ts';
import { testWinner, type VariantFigures } from '../../core/link-variants.ts';
import type { RecordAudit } from '../../core/moderation.ts';
import type { AbTestStore } from '../../core/ports/ab-test-store.ts';
import type { LinkEvents } from '../../core/ports/shared-state.ts';
import type { LinkStore, LinkUpdate } from '../../core/ports/store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { parseTargetUrl, urlHash } from '../../core/target-url.ts';

/**
 * The end of A/B tests (docs/api.md §20.x, docs/adr/046): every instance polls, and each ended
 * test is claimed by one of them at a time (a lease on the link's row), which applies the winner:
 * its URL becomes the link's, the variants are cleared, `link.updated` is made in the change's
 * transaction, every instance forgets the cached link, and the audit log records it.
 */

/** Leads and sales per variant (1-based) while the test ran; conversions are counted elsewhere. */
export type VariantConversions = (
  link: Link,
  fromDay: number,
) => Promise<Map<number, Pick<VariantFigures, 'leads' | 'sales'>>>;

export interface AbTestDeps {
  store: AbTestStore & Pick<LinkStore, 'findLinkOfWorkspace' | 'updateLink'>;
  events?: LinkEventSink;
  linkEvents: Pick<LinkEvents, 'changed'>;
  audit: RecordAudit;
  /** None yet: leads and sales count 0, so the clicks decide (core/link-variants.ts testWinner). */
  conversions?: VariantConversions;
  now: () => number;
  onError: (error: unknown) => void;
  pollMs?: number;
  leaseMs?: number;
}

/** Tests ended per poll; the rest wait for the next. */
const BATCH = 50;

/** What each variant led to from the test's first day on: clicks from the daily rows, conversions when known. */
async function figuresOf(deps: AbTestDeps, link: Link, fromDay: number): Promise<VariantFigures[]> {
  const variants = link.test?.variants ?? [];
  const clicks = await deps.store.variantClicks(link.id, fromDay);
  const converted = (await deps.conversions?.(link, fromDay)) ?? new Map();
  return variants.map((_, i) => ({
    clicks: clicks.get(i + 1) ?? 0,
    leads: converted.get(i + 1)?.leads ?? 0,
    sales: converted.get(i + 1)?.sales ?? 0,
  }));
}

export function abTestScheduler(deps: AbTestDeps) {
  const { store } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  /** The winner applied to a claimed link whose test is still the one that ended; false otherwise. */
  async function apply(claimed: Link): Promise<boolean> {
    // Read again: a change since the claim (a later end, new variants) is the owner's to keep.
    const link = await store.findLinkOfWorkspace(claimed.workspaceId, claimed.domainId, claimed.code);
    const test = link?.test;
    if (!link || !test?.endsAt || test.endsAt.getTime() > deps.now()) return false;
    const fromDay = Math.floor(test.startedAt.getTime() / DAY_MS);
    const figures = await figuresOf(deps, link, fromDay);
    const winner = test.variants[testWinner(figures)];
    const target = winner && parseTargetUrl(winner.url);
    const change: LinkUpdate = { guards: { test: null } };
    if (target && target.longUrl !== link.longUrl) {
      change.target = {
        longUrl: target.longUrl,
        normalizedUrl: target.normalized,
        urlHash: urlHash(target.normalized),
      };
    }
    let result = await store.updateLink(link.workspaceId, link.domainId, link.code, change, deps.events);
    // Another live link of the workspace has the winner's URL: the test ends, the URL stays.
    if (result.kind === 'duplicate')
      result = await store.updateLink(
        link.workspaceId,
        link.domainId,
        link.code,
        { guards: { test: null } },
        deps.events,
      );
    if (result.kind !== 'updated') return false;
    await deps.linkEvents.changed(linkKey(link.domainId, link.code));
    await deps.audit({
      actorId: null,
      actor: 'ab-test',
      workspaceId: link.workspaceId,
      action: 'link.test-ended',
      target: link.code,
      before: { url: link.longUrl, variants: test.variants.map((v, i) => ({ ...v, ...figures[i] })) },
      after: { url: result.link.longUrl },
    });
    return true;
  }

  /** One poll: the ended tests this instance could claim, each applied; how many were. */
  async function poll(): Promise<number> {
    const claimed = await store.claimEndedTests(deps.now(), BATCH, deps.leaseMs ?? 60_000);
    let applied = 0;
    for (const link of claimed) {
      try {
        if (await apply(link)) applied++;
      } catch (error) {
        // Its lease runs out and the next poll (here or elsewhere) tries it again.
        deps.onError(error);
      }
    }
    return applied;
  }

  /** One poll; a poll under way is joined rather than doubled. */
  function pollOnce(): Promise<number> {
    running ??= poll().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    /**
     * One poll as of now (tests, with their own clock): a poll under way (the timer's) began at an
     * earlier moment, so it is waited for, not joined.
     */
    async runOnce(): Promise<number> {
      while (running) await running.catch(() => undefined);
      return pollOnce();
    },
    start(): void {
      timer ??= setInterval(() => {
        pollOnce().catch(deps.onError);
      }, deps.pollMs ?? 15_000);
      timer.unref();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}

export type AbTestScheduler = ReturnType<typeof abTestScheduler>;
