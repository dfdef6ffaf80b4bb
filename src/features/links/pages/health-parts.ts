import type { Link } from '../../../core/entities.ts';
import { healthReason } from '../../../core/link-health.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { when } from '../../../web/page-parts.ts';

/** A link's health on the list and its page (docs/api.md §21), in plain words. */

/** The list's and the link page's badge of a broken link. */
export function brokenBadge(link: Pick<Link, 'health'>): SafeHtml {
  return link.health.state === 'broken'
    ? html`<span class="badge gone" data-badge="broken" title="Its target failed two checks in a row; it still redirects">Broken</span>`
    : html``;
}

/** Why the link is broken, and since when; what made its state change. */
function why(link: Pick<Link, 'health'>): string {
  const { health } = link;
  return healthReason(health.cause?.code ?? health.code, health.cause?.status ?? health.status);
}

/** The notice at the top of a broken link's page. */
export function brokenNotice(link: Pick<Link, 'health'>, zone?: string): SafeHtml {
  const { health } = link;
  if (health.state !== 'broken' || !health.since) return html``;
  return html`<p class="notice error" role="status" data-health-notice>This link stopped working on ${when(health.since, zone)}: ${why(link)}. It still redirects; Snip keeps checking it, and the badge goes once its target answers again.</p>`;
}

/** The settings' line: the state, since when, and the latest check. */
export function healthFact(link: Pick<Link, 'health'>, zone?: string): SafeHtml {
  const { health } = link;
  const checked = health.checkedAt
    ? html` <span class="hint">(last checked ${when(health.checkedAt, zone)})</span>`
    : html``;
  const since = health.since ? html` since ${when(health.since, zone)}` : html``;
  const shown =
    health.state === 'unknown'
      ? html`<span class="hint">not checked yet</span>`
      : health.state === 'ok'
        ? html`works${since}${health.failures > 0 ? html`; the latest check failed: ${healthReason(health.code, health.status)}` : html``}`
        : html`broken${since}: ${why(link)}`;
  return html`<dt>Target</dt><dd data-health="${health.state}">${shown}${checked}</dd>`;
}
