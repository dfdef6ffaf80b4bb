import { here } from '../../../web/frame.ts';
import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { type ApiAccessView, apiAccessCard } from './api-access-card.ts';

/** GET /w/<slug>/keys: the workspace's API keys (admins and owners). */
export function keysPage(view: ApiAccessView): string {
  return page({
    title: 'Keys',
    current: here(view.frame, '/keys'),
    frame: view.frame,
    styles: ['dashboard.css'],
    scripts: ['dashboard.js'],
    body: html`<h1>Keys of ${view.workspace.name}</h1>
<p class="hint">A key acts for this workspace. It never does more than its maker’s role allows, and it is revoked when its maker leaves.</p>
${apiAccessCard(view)}`,
  });
}
