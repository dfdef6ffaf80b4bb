import type { Link } from '../../../core/entities.ts';
import { hasExpired, visitsTaken } from '../../../core/link-limits.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { day, when } from '../../../web/page-parts.ts';
import { DEVICE_NAMES } from './rule-fields.ts';

/** A link's rules at a glance: badges in the list of links, facts on the link's page. */

const isExpired = (link: Link, now: number) => hasExpired(link.expiresAt?.getTime() ?? null, now);

const isUsedUp = (link: Link) => link.maxClicks !== null && visitsTaken(link) >= link.maxClicks;

const none = html`<span class="hint">none</span>`;

/** A link's rules in the list of links: gone (expired, used up) first, then what it has. */
export function ruleBadges(link: Link, now: number, zone = 'UTC'): SafeHtml {
  const badges: SafeHtml[] = [];
  const expired = isExpired(link, now);
  const usedUp = isUsedUp(link);
  // An operator took it down (docs/api.md §13): it answers 410, and only an operator enables it.
  if (link.disabled) {
    badges.push(
      html`<span class="badge gone" data-badge="disabled" title="Disabled by the operator: ${link.disabled.reason}">Disabled</span>`,
    );
  }
  if (expired) badges.push(html`<span class="badge gone" data-badge="expired">Expired</span>`);
  if (usedUp) badges.push(html`<span class="badge gone" data-badge="used-up">Used up</span>`);
  if (link.expiresAt !== null && !expired) {
    badges.push(
      html`<span class="badge" data-badge="expires" title="Expires ${when(link.expiresAt, zone)}">Expires ${day(link.expiresAt, zone)}</span>`,
    );
  }
  if (link.maxClicks !== null && !usedUp) {
    badges.push(
      html`<span class="badge" data-badge="limit">Limit ${link.maxClicks.toLocaleString('en-US')}</span>`,
    );
  }
  if (link.passwordHash !== null)
    badges.push(html`<span class="badge" data-badge="password">Password</span>`);
  if (link.rules.length > 0) {
    badges.push(
      html`<span class="badge" data-badge="rules">${link.rules.length} ${link.rules.length === 1 ? 'rule' : 'rules'}</span>`,
    );
  }
  return badges.length === 0 ? html`` : html`<span class="badges">${badges}</span>`;
}

function condition(rule: Link['rules'][number]): string {
  const { device, country, language } = rule.if;
  return [device && (DEVICE_NAMES[device] ?? device), country, language].filter(Boolean).join(', ');
}

/** The rows of the link page's facts list: expiry, visit limit, password, targeting. */
export function ruleFacts(link: Link, now: number, zone = 'UTC'): SafeHtml {
  const expires = link.expiresAt
    ? html`${when(link.expiresAt, zone)}${isExpired(link, now) ? html` <span class="badge gone">Expired</span>` : html``}`
    : none;
  const limit =
    link.maxClicks === null
      ? none
      : html`${Math.min(visitsTaken(link), link.maxClicks).toLocaleString('en-US')} of ${link.maxClicks.toLocaleString('en-US')} visits taken${isUsedUp(link) ? html` <span class="badge gone">Used up</span>` : html``}`;
  const rules =
    link.rules.length === 0
      ? none
      : html`<ol class="rule-list">${link.rules.map((rule) => html`<li>${condition(rule)} → ${rule.url}</li>`)}</ol>`;
  const disabled = link.disabled
    ? html`<dt>Disabled</dt><dd data-fact="disabled"><span class="badge gone">Disabled</span> by the operator of this Snip: ${link.disabled.reason}. It answers 410 until they enable it.</dd>`
    : html``;
  return html`${disabled}<dt>Expires</dt><dd data-fact="expires">${expires}</dd>
  <dt>Visit limit</dt><dd data-fact="limit">${limit}</dd>
  <dt>Password</dt><dd data-fact="password">${link.passwordHash === null ? none : 'set (never shown)'}</dd>
  <dt>Targeting</dt><dd data-fact="rules">${rules}</dd>`;
}
