import type { AuditEntry } from '../../core/moderation.ts';
import { field, positiveInt } from '../../web/form-fields.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import type { AuditLog } from '../abuse/index.ts';
import { PAGE_ROWS } from './admin-deps.ts';
import { timeOf } from './admin-nav.ts';

/**
 * The audit log as a page (docs/api.md §13): newest first, a hundred entries a page, an "older"
 * link to the next. Operators see every entry (/admin/audit, with each entry's workspace); a
 * workspace's owners and admins see that workspace's (/w/<slug>/audit).
 */

/** One page of the log: its entries, and the entry the next (older) page starts before. */
export interface AuditPage {
  entries: AuditEntry[];
  older?: number;
  /** The page is not the newest. */
  paged: boolean;
}

/** The page of the log the query names (`before=<id>`): one workspace's, or every entry. */
export async function auditPageOf(
  audit: Pick<AuditLog, 'list'>,
  query: unknown,
  workspaceId?: number,
): Promise<AuditPage> {
  const before = positiveInt(field(query, 'before'));
  const found = await audit.list({ workspaceId, before, limit: PAGE_ROWS + 1 });
  const entries = found.slice(0, PAGE_ROWS);
  const older = found.length > PAGE_ROWS ? entries.at(-1)?.id : undefined;
  return { entries, older, paged: before !== undefined };
}

/** before → after, as compact JSON; what an entry has of them. */
function change(entry: AuditEntry): SafeHtml {
  const json = (value: Record<string, unknown> | null | undefined) =>
    value ? html`<code>${JSON.stringify(value)}</code>` : html``;
  if (!entry.before && !entry.after) return html`<span class="hint">—</span>`;
  const arrow = entry.before && entry.after ? html` → ` : html``;
  return html`${json(entry.before)}${arrow}${json(entry.after)}`;
}

/** The log's table; with `slugs`, a column naming each entry's workspace. */
export function auditTable(entries: readonly AuditEntry[], slugs?: ReadonlyMap<number, string>): SafeHtml {
  if (entries.length === 0) return html`<p class="empty" data-state="no-entries">Nothing recorded yet.</p>`;
  const workspaceCell = (entry: AuditEntry) => {
    if (!slugs) return html``;
    const slug = entry.workspaceId === null ? undefined : slugs.get(entry.workspaceId);
    return html`<td data-label="Workspace">${slug ?? html`<span class="hint">—</span>`}</td>`;
  };
  const rows = entries.map(
    (entry) => html`<tr data-entry="${entry.id}" data-audit-action="${entry.action}">
<td data-label="When">${timeOf(entry.at)}</td>
<td data-label="Who"><span class="truncate" title="${entry.actor}">${entry.actor}</span></td>
<td data-label="Action"><code>${entry.action}</code></td>
<td data-label="Target"><span class="truncate" title="${entry.target}" data-target>${entry.target}</span></td>
${workspaceCell(entry)}<td data-label="Change">${change(entry)}</td></tr>`,
  );
  const workspaceHead = slugs ? html`<th scope="col" class="col-workspace">Workspace</th>` : html``;
  return html`<div class="table-wrap"><table class="stacked audit"><caption class="visually-hidden">Audit log, newest first</caption>
<thead><tr><th scope="col" class="col-when">When</th><th scope="col" class="col-who">Who</th><th scope="col" class="col-action">Action</th><th scope="col" class="col-target">Target</th>${workspaceHead}<th scope="col">Change</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

/** Newest and Older links, where there is such a page. */
export function auditPager(path: string, page: AuditPage): SafeHtml {
  if (!page.paged && page.older === undefined) return html``;
  return html`<nav class="pager" aria-label="Pages of the audit log">
${page.paged ? html`<a class="button secondary small" href="${path}">← Newest</a>` : html`<span></span>`}
${page.older === undefined ? html`<span></span>` : html`<a class="button secondary small" href="${path}?before=${page.older}" rel="next" data-older="${page.older}">Older →</a>`}
</nav>`;
}
