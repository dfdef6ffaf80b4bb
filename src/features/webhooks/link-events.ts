import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import type { WebhookSettings } from '../../core/settings.ts';
import type { LinkOrigins } from '../../core/short-url.ts';
import { newEvent } from '../../core/webhook-events.ts';
import { linkResource } from '../links/index.ts';

/**
 * The events of a link's changes (docs/api.md §14): `data.link` is the link as the API shows it
 * (§7.2), read inside the change's transaction, so a receiver sees the state the change left.
 */
export function linkEventSink(
  origins: LinkOrigins,
  settings: Pick<WebhookSettings, 'amqpUrl'>,
): LinkEventSink {
  return {
    stream: settings.amqpUrl !== undefined,
    render: (type, { link, tags, group }) =>
      newEvent(link.workspaceId, type, { link: linkResource(origins, link, group, tags) }),
  };
}
