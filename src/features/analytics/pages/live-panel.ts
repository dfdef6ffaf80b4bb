import { html, type SafeHtml } from '../../../web/html.ts';

/**
 * The stats page's "Live" panel (docs/api.md §19): clicks of the workspace as they are recorded,
 * newest first, fed by the page's own stream (`source`, behind the session) once the user starts
 * it, so a page left open does not hold one of the workspace's few streams by itself.
 * live-clicks.js fills it; without script the panel says so.
 */
export function livePanel(source: string): SafeHtml {
  return html`<section class="card live" id="live" aria-labelledby="live-heading" data-live-source="${source}">
<div class="live-head"><h2 id="live-heading">Live</h2>
<button type="button" class="secondary small" data-live-toggle aria-pressed="false">Watch live</button></div>
<p class="hint" data-live-status role="status">Clicks appear here as they are recorded, with their country, device and referrer; nothing that identifies a visitor.</p>
<ol class="live-clicks" data-live-list aria-label="Latest clicks, newest first"></ol>
<noscript><p class="hint">The live view needs JavaScript.</p></noscript>
</section>`;
}
