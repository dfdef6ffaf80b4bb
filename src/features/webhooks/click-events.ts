import { DIMENSION_CODE, type EventTable } from '../../core/analytics/event-table.ts';
import type { Link } from '../../core/entities.ts';
import type { ModerationStore } from '../../core/ports/abuse-store.ts';
import type { ClickNotices } from '../../core/ports/webhook-store.ts';
import { type LinkOrigins, shortUrl } from '../../core/short-url.ts';
import { eventId, type NewEvent } from '../../core/webhook-events.ts';
import type { OutboxGauge } from './outbox-gauge.ts';
import type { Subscribers } from './subscribers.ts';

/** Links remembered by id for click events: a link's code and domain never change. */
const REMEMBERED_LINKS = 10_000;

export interface ClickEventOptions {
  store: Pick<ModerationStore, 'findLinkById'>;
  origins: LinkOrigins;
  subscribers: Subscribers;
  gauge: OutboxGauge;
}

type LinkFacts = Pick<Link, 'code' | 'domainId' | 'longUrl'> & {
  /** The event's `link` member as JSON, made once per host of its domain. */
  json?: { host: string; text: string };
};

/**
 * The link.clicked events of a part of a flush's visits (docs/api.md §14): one per human click
 * recorded with its facts (§9.1), only for workspaces someone hears, never an address, a visitor
 * id or a user agent. A click that asked not to be tracked (DNT, GPC, TRACKING=minimal) has no
 * recorded visit, so no event either. Past WEBHOOK_OUTBOX_MAX they are dropped and counted.
 */
export function clickEvents(options: ClickEventOptions) {
  const { store, origins, subscribers, gauge } = options;
  const links = new Map<number, LinkFacts | null>();

  async function factsOf(linkId: number): Promise<LinkFacts | null> {
    let facts = links.get(linkId);
    if (facts === undefined) {
      const link = await store.findLinkById(linkId);
      facts = link ? { code: link.code, domainId: link.domainId, longUrl: link.longUrl } : null;
      if (links.size >= REMEMBERED_LINKS) links.clear();
      if (facts) links.set(linkId, facts);
    }
    return facts;
  }

  function linkJson(link: LinkFacts): string {
    const host = origins.hostOf(link.domainId);
    if (link.json?.host !== host) {
      const text = JSON.stringify({
        short_code: link.code,
        domain: host,
        short_url: shortUrl(origins, link),
        long_url: link.longUrl,
      });
      link.json = { host, text };
    }
    return link.json.text;
  }

  return async function notices(events: EventTable): Promise<ClickNotices | undefined> {
    if (!subscribers.anyClicks) return undefined;
    const made: NewEvent[] = [];
    for (let i = 0; i < events.length; i++) {
      const workspaceId = events.workspaceId(i);
      if (!subscribers.hearsClicks(workspaceId)) continue;
      if (!gauge.admit()) continue;
      const link = await factsOf(events.linkId(i));
      if (!link) continue;
      const value = (dimension: keyof typeof DIMENSION_CODE) => events.value(i, DIMENSION_CODE[dimension]);
      const at = events.at(i);
      const when = new Date(at).toISOString();
      const click = JSON.stringify({
        at: when,
        referrer: value('referrer'),
        country: value('country'),
        device: value('device'),
        os: value('os'),
        browser: value('browser'),
        language: value('language'),
        source: value('source'),
      });
      // The bytes JSON.stringify({type, timestamp, data: {link, click}}) makes, the link's part made once.
      const body = `{"type":"link.clicked","timestamp":"${when}","data":{"link":${linkJson(link)},"click":${click}}}`;
      made.push({ id: eventId(), workspaceId, type: 'link.clicked', body, at });
    }
    return made.length === 0 ? undefined : { events: made, stream: subscribers.stream };
  };
}
