import type { ConversionEventSink, ConvertedLink } from '../../core/ports/conversion-store.ts';
import type { WebhookSettings } from '../../core/settings.ts';
import { type LinkOrigins, shortUrl } from '../../core/short-url.ts';
import { newEvent } from '../../core/webhook-events.ts';

/**
 * The events of conversions (docs/api.md §20): `lead.created` and `sale.created`, made inside the
 * lead's or sale's transaction. A body names the link, the event, the amounts and the customer_key:
 * nothing else about the customer (Snip keeps nothing else), and never the click id.
 */
export function conversionEventSink(
  origins: LinkOrigins,
  settings: Pick<WebhookSettings, 'amqpUrl'>,
  made: () => void,
): ConversionEventSink {
  const linkOf = (link: ConvertedLink) => ({
    short_code: link.code,
    domain: origins.hostOf(link.domainId),
    short_url: shortUrl(origins, link),
  });
  return {
    stream: settings.amqpUrl !== undefined,
    lead(view) {
      made();
      return newEvent(
        view.workspaceId,
        'lead.created',
        { link: linkOf(view.link), event_name: view.eventName, customer_key: view.customerKey },
        view.at,
      );
    },
    sale(view) {
      made();
      return newEvent(
        view.workspaceId,
        'sale.created',
        {
          link: linkOf(view.link),
          event_name: view.eventName,
          amount: view.amount,
          currency: view.currency,
          customer_key: view.customerKey,
        },
        view.at,
      );
    },
  };
}
