import { mayAssign, mayRemove, ROLES, type Role } from '../../../core/authorization.ts';
import type { Invitation, Member, Workspace } from '../../../core/entities.ts';
import { type Frame, here } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { day, when } from '../../../web/page-parts.ts';

/**
 * GET /w/<slug>/members: who is in the workspace with which role, the pending invitations, and the
 * form that invites. A form is shown only where core/authorization.ts lets the viewer's role act.
 */

export interface MembersView {
  frame: Frame;
  workspace: Workspace;
  role: Role;
  userId: number;
  members: readonly Member[];
  invitations: readonly Invitation[];
  /** The link of the invitation just made: shown once, to copy. */
  made?: { email: string; url: string; mailed: boolean };
  done?: string;
  error?: PageError;
  draft?: { email: string; role: string };
}

const DONE: Record<string, string> = {
  'role-changed': 'The role was changed.',
  'member-removed': 'The member was removed; the keys and invitations they made here were revoked.',
  'invitation-revoked': 'The invitation was revoked: its link no longer works.',
};

function roleOptions(roles: readonly Role[], selected: string): SafeHtml {
  return html`${roles.map((role) => html`<option value="${role}"${role === selected ? html` selected` : html``}>${role}</option>`)}`;
}

function memberRow(view: MembersView, member: Member): SafeHtml {
  const base = here(view.frame);
  const csrf = csrfField(view.frame.csrfToken);
  const assignable = ROLES.filter((role) => mayAssign(view.role, role, member.role));
  const you = member.userId === view.userId ? html` <span class="hint">you</span>` : html``;
  // The last owner can be neither demoted nor removed (319): no control that could only fail.
  const lastOwner = member.role === 'owner' && view.members.filter((m) => m.role === 'owner').length === 1;
  const change =
    !lastOwner && assignable.length > 0 && mayAssign(view.role, member.role, member.role)
      ? html`<form method="post" action="${base}/members/role" class="row inline">${csrf}
<input type="hidden" name="email" value="${member.email}">
<label><span class="visually-hidden">Role of ${member.email}</span><select name="role">${roleOptions(assignable, member.role)}</select></label>
<button type="submit" class="secondary small">Change</button></form>`
      : html`<span data-role="${member.role}">${member.role}</span>`;
  const remove =
    !lastOwner && mayRemove(view.role, member.role)
      ? html`<form method="post" action="${base}/members/remove" class="inline" data-confirm="Remove ${member.email}? The keys they made here stop working at once.">${csrf}
<input type="hidden" name="email" value="${member.email}"><button type="submit" class="danger small">Remove</button></form>`
      : html``;
  return html`<tr data-member="${member.email}" data-role="${member.role}">
<td data-label="Email"><span class="truncate" title="${member.email}">${member.email}</span>${you}</td>
<td data-label="Role">${change}</td>
<td data-label="Joined"><time datetime="${member.joinedAt.toISOString()}" title="${when(member.joinedAt)}">${day(member.joinedAt)}</time></td>
<td class="actions">${remove}</td></tr>`;
}

function invitationsCard(view: MembersView): SafeHtml {
  const base = here(view.frame);
  const canInvite = ROLES.filter((role) => mayAssign(view.role, role));
  const draft = view.draft ?? { email: '', role: 'member' };
  const made = view.made
    ? html`<div class="fresh-key" data-state="invitation-made"><p><strong>Invitation for ${view.made.email}.</strong>
${view.made.mailed ? 'It was mailed; you can also send this link yourself.' : 'Send this link yourself: it works once, for that email, for 7 days.'}</p>
<p class="copyable"><code id="invitation-url">${view.made.url}</code> <button type="button" data-copy-from="invitation-url">Copy the link</button></p></div>`
    : html``;
  const rows = view.invitations.map(
    (invitation) => html`<tr data-invitation="${invitation.id}">
<td data-label="Email"><span class="truncate">${invitation.email}</span></td><td data-label="Role">${invitation.role}</td>
<td data-label="Expires"><time datetime="${invitation.expiresAt.toISOString()}">${when(invitation.expiresAt)}</time></td>
<td class="actions"><form method="post" action="${base}/invitations/${invitation.id}/revoke" class="inline">${csrfField(view.frame.csrfToken)}<button type="submit" class="danger small">Revoke</button></form></td></tr>`,
  );
  return html`<section class="card" id="invitations" aria-labelledby="invitations-heading">
<h2 id="invitations-heading">Invitations</h2>
${made}
<form method="post" action="${base}/invitations" class="row">
  ${csrfField(view.frame.csrfToken)}
  <label class="grow">Email <input type="email" name="email" required maxlength="254" value="${draft.email}"></label>
  <label>Role <select name="role">${roleOptions(canInvite, draft.role)}</select></label>
  <button type="submit">Invite</button>
</form>
${
  rows.length === 0
    ? html`<p class="hint" data-state="no-invitations">No pending invitations.</p>`
    : html`<div class="table-wrap"><table class="invitations"><caption class="visually-hidden">Pending invitations</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
</section>`;
}

export function membersPage(view: MembersView): string {
  return page({
    title: 'Members',
    current: here(view.frame, '/members'),
    frame: view.frame,
    styles: ['dashboard.css'],
    scripts: ['dashboard.js'],
    body: html`<h1>Members of ${view.workspace.name}</h1>
${doneNotice(view.done, DONE)}
${errorNotice(view.error)}
<section class="card" aria-labelledby="members-heading">
<h2 id="members-heading">Members <span class="hint">${view.members.length}</span></h2>
<p class="hint">Owners do everything; admins manage members, keys and settings; members make and change links; viewers see links and stats.</p>
<div class="table-wrap"><table class="members"><caption class="visually-hidden">Members and their roles</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${view.members.map((member) => memberRow(view, member))}</tbody></table></div>
</section>
${mayAssign(view.role, 'viewer') ? invitationsCard(view) : html``}`,
  });
}
