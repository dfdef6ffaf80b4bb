import type { IncomingMessage } from 'node:http';
import { forwardTo } from '../../core/forward-query.ts';
import { previewerOf } from '../../core/link-previewers.ts';
import type { RedirectLink } from '../../core/ports/link-code-store.ts';

/**
 * What a few links do beyond sending visitors to their target (docs/api.md §16, §20): forward the
 * short URL's query, show link previewers a card, hand each click an id for conversions. Computed once when the link is cached and absent for
 * every other link, so that the hot path's whole cost for those is one property read.
 */
export interface LinkExtras {
  forwardQuery: boolean;
  preview: PreviewCard | null;
  /** A human click gets a click id appended as `snip_id` (docs/api.md §20). */
  track: boolean;
}

/** The card a link previewer gets, with what it names the short URL by. */
export interface PreviewCard {
  /** The preview's title, else the link's ('' when neither has one: the short URL stands in). */
  title: string;
  description: string;
  image: string | null;
  domainId: number;
  code: string;
}

export function extrasOf(link: RedirectLink): LinkExtras | undefined {
  const preview = link.preview ?? null;
  if (!link.forwardQuery && preview === null && !link.tracksConversions) return undefined;
  return {
    forwardQuery: Boolean(link.forwardQuery),
    track: Boolean(link.tracksConversions),
    preview: preview && {
      title: preview.title || link.title,
      description: preview.description,
      image: preview.image,
      domainId: link.domainId,
      code: link.code,
    },
  };
}

/** The previewer asking for a link's card: only a GET or HEAD of a link that has one gets it. */
export function previewerAsking(
  extras: LinkExtras | undefined,
  method: string,
  userAgent: string | undefined,
): string | undefined {
  if (!extras?.preview || (method !== 'GET' && method !== 'HEAD')) return undefined;
  return previewerOf(userAgent);
}

/**
 * The hot path's target for a link with extras: its query forwarded, or undefined for a previewer
 * asking for its card, which the route answers (a page, under the page headers).
 */
export function extrasTarget(extras: LinkExtras, location: string, req: IncomingMessage): string | undefined {
  if (previewerAsking(extras, req.method ?? '', req.headers['user-agent']) !== undefined) return undefined;
  return extras.forwardQuery ? forwardTo(location, req.url) : location;
}
