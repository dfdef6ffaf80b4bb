import type { Group } from '../../../core/entities.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { csrfField } from '../../../web/notices.ts';

/** The dashboard's groups: one line each with its ID and API identifier; renaming and deleting behind a menu. */

function groupRow(base: string, group: Group, csrfToken: string | undefined): SafeHtml {
  return html`<tr data-group-id="${group.id}">
<td data-label="Name"><span class="truncate" title="${group.name}">${group.name}</span></td>
<td data-label="API identifier" class="group-ids"><code>${group.apiId}</code></td>
<td data-label="ID" class="num"><code>${group.id}</code></td>
<td class="actions">${csrfToken === undefined ? '' : groupMenu(base, group, csrfToken)}</td>
</tr>`;
}

function groupMenu(base: string, group: Group, csrfToken: string): SafeHtml {
  return html`<details class="menu"><summary aria-label="Change the group ${group.name}">⋯</summary>
<div class="menu-items wide">
<form method="post" action="${base}/groups/${group.id}" class="stack">
  ${csrfField(csrfToken)}
  <label>Name <input type="text" name="name" required maxlength="100" value="${group.name}"></label>
  <label>API identifier <input type="text" name="api_id" required maxlength="64" value="${group.apiId}" spellcheck="false"></label>
  <button type="submit" class="secondary small">Save the group</button>
</form>
<form method="post" action="${base}/groups/${group.id}/delete" data-confirm="Delete the group ${group.name}? Its links stay, without a group.">
  ${csrfField(csrfToken)}<button type="submit" class="danger small">Delete the group</button>
</form>
</div></details>`;
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
  <label class="grow">Name <input type="text" name="name" required maxlength="100"></label>
  <label class="grow">API identifier <span class="hint">optional; made from the name</span>
    <input type="text" name="api_id" maxlength="64" spellcheck="false" placeholder="spring-sale"></label>
  <button type="submit">Create group</button>
</form>`
}
${
  groups.length === 0
    ? html`<div class="empty" data-state="no-groups"><p>No groups yet. A group keeps links apart, one per campaign or site; send its ID or API identifier as <code>group</code> to <code>/create</code>.</p></div>`
    : html`<div class="table-wrap"><table class="groups">
<thead><tr><th scope="col">Name</th><th scope="col">API identifier</th><th scope="col" class="num">ID</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${groups.map((group) => groupRow(base, group, csrfToken))}</tbody></table></div>
<p class="hint">Either the ID or the API identifier is the <code>group</code> of <code>/create</code>.</p>`
}
</section>`;
}
