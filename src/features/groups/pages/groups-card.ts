import type { Group } from '../../../core/entities.ts';
import { html, raw, type SafeHtml } from '../../../web/html.ts';
import { csrfField } from '../../../web/notices.ts';

/**
 * The dashboard's groups: one line each with its ID and API identifier, its name showing its links;
 * renaming and deleting behind a menu in a popover (top layer: no scroll box clips it; dashboard.js
 * sets it beside its button, and asks in a dialog before a delete).
 */

const MORE_ICON = raw(
  '<svg class="icon icon-more" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="5" cy="12" r="1.8"/><circle cx="12" cy="12" r="1.8"/><circle cx="19" cy="12" r="1.8"/></svg>',
);

function groupRow(base: string, group: Group, csrfToken: string | undefined): SafeHtml {
  return html`<tr data-group-id="${group.id}">
<td data-label="Name"><a class="truncate group-name" href="${base}?group=${group.id}" title="The links of ${group.name}">${group.name}</a></td>
<td data-label="API identifier" class="group-ids"><code>${group.apiId}</code></td>
<td data-label="ID" class="num"><code>${group.id}</code></td>
<td class="actions">${csrfToken === undefined ? '' : groupMenu(base, group, csrfToken)}</td>
</tr>`;
}

function groupMenu(base: string, group: Group, csrfToken: string): SafeHtml {
  const id = `group-menu-${group.id}`;
  return html`<button type="button" class="icon-button menu-button" popovertarget="${id}" aria-label="Change the group ${group.name}" title="Actions">${MORE_ICON}</button>
<div class="menu-pop menu-items wide" id="${id}" popover data-menu>
<form method="post" action="${base}/groups/${group.id}" class="stack">
  ${csrfField(csrfToken)}
  <label>Name <input type="text" name="name" required maxlength="100" value="${group.name}"></label>
  <label>API identifier <input type="text" name="api_id" required maxlength="64" value="${group.apiId}" spellcheck="false"></label>
  <button type="submit" class="secondary small">Save the group</button>
</form>
<form method="post" action="${base}/groups/${group.id}/delete" data-confirm="Delete the group ${group.name}? Its links stay, without a group." data-confirm-title="Delete this group?">
  ${csrfField(csrfToken)}<button type="submit" class="danger small">Delete the group</button>
</form>
</div>`;
}

/** `csrfToken` undefined: the user may not change groups, so the card only lists them. */
export function groupsCard(base: string, groups: readonly Group[], csrfToken: string | undefined): SafeHtml {
  return html`<section class="card" id="groups" aria-labelledby="groups-heading">
<h2 id="groups-heading">Groups</h2>
${
  csrfToken === undefined
    ? ''
    : html`<form method="post" action="${base}/groups" class="row">
  ${csrfField(csrfToken)}
  <label class="grow">Name <input type="text" name="name" required maxlength="100" placeholder="e.g. Spring sale"></label>
  <label class="grow">API identifier <input type="text" name="api_id" maxlength="64" spellcheck="false" placeholder="optional, made from the name"></label>
  <button type="submit">Create group</button>
</form>`
}
${
  groups.length === 0
    ? html`<div class="empty" data-state="no-groups"><p>No groups yet. A group keeps links apart: one per campaign, site or client.</p></div>`
    : html`<div class="table-wrap"><table class="groups">
<thead><tr><th scope="col">Name</th><th scope="col">API identifier</th><th scope="col" class="num">ID</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${groups.map((group) => groupRow(base, group, csrfToken))}</tbody></table></div>`
}
</section>`;
}
