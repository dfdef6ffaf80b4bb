import type { Link } from '../core/entities.ts';
import { html, type SafeHtml } from './html.ts';

/** Pieces the pages of several features show: times, and a link's target. */

export function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The target, as a link that sends no referrer and no opener; only http(s) URLs are ever stored. */
export function longUrlLink(link: Link, truncate = false): SafeHtml {
  return html`<a href="${link.longUrl}" rel="noopener noreferrer nofollow" class="long-url${truncate ? ' truncate' : ''}" title="${link.longUrl}">${link.longUrl}</a>`;
}
