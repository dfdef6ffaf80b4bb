import type { FastifyReply, FastifyRequest } from 'fastify';
import { withClickId } from '../../core/conversions.ts';
import { forwardTo } from '../../core/forward-query.ts';
import { type LinkOrigins, shortUrl } from '../../core/short-url.ts';
import { NO_STORE, type RedirectAnswer } from './fast-path.ts';
import type { CachedLink } from './link-cache.ts';
import { PREVIEW_POLICY, previewPage } from './preview-page.ts';

/**
 * The route's answer for a link with extras that passed its rules (docs/api.md §16): the redirect
 * with the short URL's query forwarded, or, for the link previewer asking for the link's card, the
 * card's page, counted as a bot hit and never as a click.
 */
export interface TargetAnswerOptions {
  answer: RedirectAnswer;
  /** Each domain's origin, for the short URL the card names. */
  origins: LinkOrigins;
}

export interface TargetAnswer {
  link: CachedLink;
  /** The target chosen (a targeting rule's or the link's), as a Location value. */
  location: string;
  status: number;
  /** The method the visit is counted under (a password POST counts as the GET it stands for). */
  method: string;
  /** The previewer asking for the link's card (link-extras.ts previewerAsking), if any. */
  previewer: string | undefined;
  /** The A/B test's variant chosen (1-4), 0 or absent: none. */
  variant?: number;
}

export function sendTarget(
  options: TargetAnswerOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  target: TargetAnswer,
): FastifyReply {
  const { link } = target;
  const extras = link.extras;
  const location = extras?.forwardQuery ? forwardTo(target.location, request.url) : target.location;
  const card = extras?.preview;
  if (target.previewer !== undefined && card) {
    options.answer.asBot(link, target.method, request.raw);
    return reply
      .code(200)
      .header('cache-control', NO_STORE)
      .header('content-security-policy', PREVIEW_POLICY)
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(previewPage(card, shortUrl(options.origins, card), location));
  }
  const clickId = options.answer(link, target.method, request.raw, target.variant);
  const sent = clickId === undefined ? location : withClickId(location, clickId);
  return reply.code(target.status).header('location', sent).header('cache-control', NO_STORE).send();
}

/** The form's own address for a password link: its query kept when the link forwards it. */
export function formAction(request: FastifyRequest, code: string, link: CachedLink): string {
  const at = request.url.indexOf('?');
  return link.extras?.forwardQuery && at >= 0 ? `/${code}${request.url.slice(at)}` : `/${code}`;
}
