import { DIMENSION_CODE, type EventTable } from '../../../core/analytics/event-table.ts';
import type { ModerationStore } from '../../../core/ports/abuse-store.ts';
import type { LiveClick, LiveClicks } from '../../../core/ports/live-clicks.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';

/** Links remembered by id, and for how long: a rename changes a link's code (docs/api.md §18). */
const REMEMBERED_LINKS = 10_000;
const REMEMBERED_MS = 60_000;
/**
 * Clicks of one workspace handed on per part of a flush, at most: a live view of a burst is a
 * sample of it, and a message on Redis stays small.
 */
export const LIVE_CLICKS_PER_PART = 500;

export interface LiveFeedOptions {
  clicks: LiveClicks;
  store: Pick<ModerationStore, 'findLinkById'>;
  origins: LinkOrigins;
  now: () => number;
}

type LinkFacts = Pick<LiveClick, 'code' | 'domain'>;

/**
 * The live clicks of a part of a flush's recorded events (docs/api.md §19): only for workspaces
 * someone watches, here or on another instance; each with the facts of §9.1 and its link's code and
 * domain, never a visitor id or a link id. Nothing is made while nobody watches.
 */
export function liveFeed(options: LiveFeedOptions) {
  const { clicks, store, origins, now } = options;
  let links = new Map<number, LinkFacts | null>();
  let forgetAt = 0;

  async function factsOf(linkId: number): Promise<LinkFacts | null> {
    if (now() >= forgetAt || links.size >= REMEMBERED_LINKS) {
      links = new Map();
      forgetAt = now() + REMEMBERED_MS;
    }
    let facts = links.get(linkId);
    if (facts === undefined) {
      const link = await store.findLinkById(linkId);
      facts = link ? { code: link.code, domain: origins.hostOf(link.domainId) } : null;
      links.set(linkId, facts);
    }
    return facts;
  }

  return async function feed(events: EventTable): Promise<void> {
    if (!clicks.anyHeard) return;
    const made = new Map<number, LiveClick[]>();
    for (let i = 0; i < events.length; i++) {
      const workspaceId = events.workspaceId(i);
      if (!clicks.heard(workspaceId)) continue;
      let list = made.get(workspaceId);
      if (!list) {
        list = [];
        made.set(workspaceId, list);
      }
      if (list.length >= LIVE_CLICKS_PER_PART) continue;
      const link = await factsOf(events.linkId(i));
      if (!link) continue;
      const value = (dimension: keyof typeof DIMENSION_CODE) => events.value(i, DIMENSION_CODE[dimension]);
      list.push({
        at: new Date(events.at(i)).toISOString(),
        code: link.code,
        domain: link.domain,
        referrer: value('referrer'),
        country: value('country'),
        device: value('device'),
        os: value('os'),
        browser: value('browser'),
        language: value('language'),
        source: value('source'),
      });
    }
    for (const [workspaceId, list] of made) if (list.length > 0) clicks.publish(workspaceId, list);
  };
}
