import { defang } from '../../core/defang.ts';
import type { ConsoleLink, ConsoleWorkspace } from '../../core/ports/console-store.ts';
import { shortUrl } from '../../core/short-url.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import type { AdminPageOptions } from './admin-deps.ts';
import { timeOf } from './admin-nav.ts';

/**
 * Links and workspaces as the console shows them beside its figures and reports: a target only
 * defanged, as text (core/defang.ts), so no page of the console is one click from what it names;
 * a workspace with its owner, leading to the workspace's row in the console.
 */

/** A URL as text that is no link: `hxxps://evil[.]example/…`. */
export function defanged(url: string, fact = 'target', cut = false): SafeHtml {
  return html`<code class="defanged${cut ? ' truncate' : ''}" data-fact="${fact}">${defang(url)}</code>`;
}

/** The workspace's address, leading to its row in the console. */
export function workspaceCell(workspace: ConsoleWorkspace): SafeHtml {
  return html`<a href="/admin/workspaces?q=${encodeURIComponent(workspace.slug)}" data-workspace="${workspace.slug}">${workspace.slug}</a>${workspace.suspended ? html` <span class="badge gone" data-state="suspended">suspended</span>` : html``}`;
}

export function ownerCell(workspace: ConsoleWorkspace): SafeHtml {
  return workspace.owner === null
    ? html`<span class="hint" data-owner="">none</span>`
    : html`<span class="truncate" data-owner="${workspace.owner}">${workspace.owner}</span>`;
}

/** A table of links with their short URL, defanged target, workspace, owner, clicks and creation. */
export function consoleLinksTable(
  options: Pick<AdminPageOptions, 'origins'>,
  rows: readonly ConsoleLink[],
  caption: string,
): SafeHtml {
  const body = rows.map(({ link, workspace }) => {
    const short = defang(shortUrl(options.origins, link));
    return html`<tr data-link="${link.id}" data-code="${link.code}">
<td data-label="Short URL"><code class="truncate">${short}</code></td>
<td data-label="Target">${defanged(link.longUrl, 'target', true)}</td>
<td data-label="Workspace">${workspaceCell(workspace)}</td>
<td data-label="Owner">${ownerCell(workspace)}</td>
<td data-label="Clicks" class="num">${link.clicks.toLocaleString('en-US')}</td>
<td data-label="Made">${timeOf(link.createdAt)}</td></tr>`;
  });
  return html`<div class="table-wrap"><table class="stacked"><caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">Short URL</th><th scope="col">Target</th><th scope="col">Workspace</th><th scope="col">Owner</th><th scope="col" class="num">Clicks</th><th scope="col">Made</th></tr></thead>
<tbody>${body}</tbody></table></div>`;
}
