import type { User } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { field } from '../../web/form-fields.ts';
import type { Frame } from '../../web/frame.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { frameOf } from '../../web/session/handlers.ts';
import type { AuditActor } from '../abuse/index.ts';
import { type AdminPageOptions, PAGE_ROWS } from './admin-deps.ts';
import { consolePage, doneOf, rowForm, searchForm, timeOf } from './admin-nav.ts';
import type { Section, SectionAction } from './section.ts';

/**
 * /admin/users (docs/api.md §13): users found by their email; each suspended or resumed, made an
 * operator or not, or deleted (a box ticked first). An operator's own row offers none of what would
 * lock them out.
 */

const PATH = '/admin/users';

const DONE: Record<string, string> = {
  suspended: 'The user is suspended: they are signed out and cannot sign in.',
  resumed: 'The user can sign in again.',
  granted: 'The user is an operator.',
  revoked: 'The user is no longer an operator.',
  deleted: 'The user was deleted, with their personal workspace.',
};

function status(user: User): SafeHtml {
  const operator = user.operator ? html`<span class="badge" data-state="operator">operator</span> ` : html``;
  const state =
    user.suspendedAt === null
      ? html`<span class="badge" data-state="active">active</span>`
      : html`<span class="badge gone" data-state="suspended">suspended</span>`;
  return html`${operator}${state}`;
}

function actions(frame: Frame, user: User, q: string, self: boolean): SafeHtml {
  const hidden = { email: user.email, q };
  const button = (action: string, label: string, kind = 'secondary') =>
    rowForm(
      frame,
      `${PATH}/${action}`,
      hidden,
      html`<button type="submit" class="${kind} small" data-action="${action}">${label}<span class="visually-hidden"> ${user.email}</span></button>`,
    );
  const suspend =
    user.suspendedAt === null ? button('suspend', 'Suspend', 'danger') : button('resume', 'Resume');
  const operator = user.operator ? button('revoke', 'Revoke operator') : button('grant', 'Make operator');
  const remove = rowForm(
    frame,
    `${PATH}/delete`,
    hidden,
    html`<label class="check"><input type="checkbox" name="confirm" value="on" required> Delete for good</label>
<button type="submit" class="danger small" data-action="delete">Delete<span class="visually-hidden"> ${user.email}</span></button>`,
    'stack',
  );
  const items = self
    ? html`<span class="hint">your own account</span>`
    : html`${suspend}${operator}${remove}`;
  return html`<details class="menu"><summary>Actions<span class="visually-hidden"> for ${user.email}</span></summary>
<div class="menu-items wide">${items}</div></details>`;
}

function usersTable(frame: Frame, users: readonly User[], q: string, selfId: number): SafeHtml {
  if (users.length === 0)
    return html`<p class="empty" data-state="no-users">No user’s email contains that.</p>`;
  const rows = users.map(
    (
      user,
    ) => html`<tr data-user="${user.email}" data-suspended="${String(user.suspendedAt !== null)}" data-operator="${String(user.operator)}">
<td data-label="Email"><span class="truncate" title="${user.email}">${user.email}</span></td>
<td data-label="Status">${status(user)}</td>
<td data-label="Joined">${timeOf(user.createdAt)}</td>
<td class="actions">${actions(frame, user, q, user.id === selfId)}</td></tr>`,
  );
  return html`<div class="table-wrap"><table class="stacked"><caption class="visually-hidden">Users</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Status</th><th scope="col">Joined</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

/** The users section of the console. */
export function usersSection(options: AdminPageOptions): Section {
  return {
    path: PATH,
    keep: ['q'],
    async render(user, fields, error) {
      const q = field(fields, 'q').trim();
      const users = await options.store.searchUsers(q, PAGE_ROWS);
      const frame = frameOf(user);
      return consolePage({
        title: 'Users',
        path: PATH,
        frame,
        done: { code: doneOf(field(fields, 'done')), messages: DONE },
        error,
        body: html`<section class="card" aria-labelledby="users-heading">
<h2 id="users-heading">Users <span class="hint" data-count="${users.length}">${users.length === PAGE_ROWS ? `the newest ${PAGE_ROWS}` : users.length}</span></h2>
${searchForm(PATH, q, 'Email contains', 'someone@example.com')}
${usersTable(frame, users, q, user.user.id)}
</section>`,
      });
    },
  };
}

/** The users section's forms, each by the form's `email`. */
export function userActions(options: AdminPageOptions): Record<string, SectionAction> {
  const { takedowns } = options.abuse;
  const email = (body: unknown) => field(body, 'email');
  const act =
    (run: (actor: AuditActor, email: string) => Promise<unknown>, done: string): SectionAction =>
    async (body, actor) => {
      await run(actor, email(body));
      return done;
    };
  return {
    suspend: act(takedowns.suspendUser, 'suspended'),
    resume: act(takedowns.resumeUser, 'resumed'),
    grant: act(takedowns.grantOperator, 'granted'),
    revoke: act(takedowns.revokeOperator, 'revoked'),
    async delete(body, actor) {
      if (field(body, 'confirm') !== 'on') throw new Refusal('confirm-required');
      await takedowns.deleteUser(actor, email(body));
      return 'deleted';
    },
  };
}
