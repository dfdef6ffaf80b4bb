import type { Link } from '../core/entities.ts';
import { wallDayOf, wallTimeOf } from '../core/time-zone.ts';
import { html, type SafeHtml } from './html.ts';

/** Pieces the pages of several features show: times, and a link's target. */

/** The instant as people read it, in a time zone (a workspace's, docs/api.md §18): `2027-01-31 13:00 Europe/Paris`. */
export function when(date: Date, zone = 'UTC'): string {
  return wallTimeOf(date, zone);
}

export function day(date: Date, zone = 'UTC'): string {
  return wallDayOf(date, zone);
}

/** The target, as a link that sends no referrer and no opener; only http(s) URLs are ever stored. */
export function longUrlLink(link: Link, truncate = false): SafeHtml {
  return html`<a href="${link.longUrl}" rel="noopener noreferrer nofollow" class="long-url${truncate ? ' truncate' : ''}" title="${link.longUrl}">${link.longUrl}</a>`;
}
