import type { FastifyInstance, FastifyReply } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import { field, positiveInt } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import { messagePage } from '../../../web/message-page.ts';
import { refusedOn, rerenderRefused } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import {
  type InWorkspace,
  type WorkspaceDeps,
  workspaceForm,
  workspaceFrame,
  workspacePage,
} from '../../../web/session/workspace-pages.ts';
import { userAuditor } from '../audit-actor.ts';
import type { InvitationsService } from '../invitations.ts';
import type { MembersService } from '../members.ts';
import { type MembersView, membersPage } from './members-page.ts';

/** /w/<slug>/members and its forms: invite, revoke an invitation, change a role, remove, leave. */

export interface MemberPageOptions extends WorkspaceDeps {
  members: MembersService;
  invitations: InvitationsService;
  /** Mail is configured: an invitation is mailed as well as shown. */
  mails: boolean;
}

const acting = (here: InWorkspace) => ({ userId: here.user.id, role: here.role, by: userAuditor(here.user) });
const membersOf = (here: InWorkspace, done: string) =>
  workspacePath(here.workspace.slug, `/members?done=${done}`);

function membersRenderer(options: MemberPageOptions) {
  async function render(
    reply: FastifyReply,
    here: InWorkspace,
    status: number,
    extra: Partial<MembersView> = {},
  ) {
    const [members, invitations] = await Promise.all([
      options.members.list(here.workspace),
      options.invitations.pending(here.workspace),
    ]);
    const view = {
      frame: workspaceFrame(here),
      workspace: here.workspace,
      role: here.role,
      userId: here.user.id,
    };
    return sendPage(reply, status, membersPage({ ...view, members, invitations, ...extra }));
  }
  const refused = rerenderRefused<InWorkspace, MembersView>(render);
  return { render, refused };
}

export async function memberPageRoutes(app: FastifyInstance, options: MemberPageOptions): Promise<void> {
  const { invitations } = options;
  const { render, refused } = membersRenderer(options);

  app.get(
    '/w/:workspace/members',
    workspacePage(options, 'members:read', (request, reply, here) => {
      const done = field(request.query, 'done');
      return render(reply, here, 200, { done: done === '' ? undefined : done });
    }),
  );

  app.post(
    '/w/:workspace/invitations',
    workspaceForm(options, 'members:write', async (request, reply, here) => {
      const draft = { email: field(request.body, 'email'), role: field(request.body, 'role') };
      try {
        const made = await invitations.invite(here.workspace, acting(here), draft.email, draft.role);
        const shown = { email: made.invitation.email, url: made.url, mailed: options.mails };
        return render(reply, here, 201, { made: shown });
      } catch (error) {
        return refused(reply, here, error, { draft });
      }
    }),
  );

  app.post(
    '/w/:workspace/invitations/:id/revoke',
    workspaceForm(options, 'members:write', async (request, reply, here) => {
      try {
        const id = positiveInt((request.params as { id: string }).id);
        if (id === undefined) throw new Refusal('not-found');
        await invitations.revoke(here.workspace, acting(here), id);
        return reply.redirect(membersOf(here, 'invitation-revoked'), 303);
      } catch (error) {
        return refused(reply, here, error);
      }
    }),
  );

  await app.register(memberForms, options);
}

/** Changing a role, removing someone, leaving: never the last owner (409 `319`). */
async function memberForms(app: FastifyInstance, options: MemberPageOptions): Promise<void> {
  const { members } = options;
  const { refused } = membersRenderer(options);

  /** A change of one member, named by the form's email, then back to the members. */
  const memberForm = (
    path: string,
    done: string,
    change: (here: InWorkspace, email: string, body: unknown) => Promise<unknown>,
  ) =>
    app.post(
      path,
      workspaceForm(options, 'members:write', async (request, reply, here) => {
        try {
          await change(here, field(request.body, 'email'), request.body);
          return reply.redirect(membersOf(here, done), 303);
        } catch (error) {
          return refused(reply, here, error);
        }
      }),
    );

  memberForm('/w/:workspace/members/role', 'role-changed', (here, email, body) =>
    members.changeRole(here.workspace, acting(here), email, field(body, 'role')),
  );
  memberForm('/w/:workspace/members/remove', 'member-removed', (here, email) =>
    members.remove(here.workspace, acting(here), email),
  );

  /** Anyone may leave. */
  app.post(
    '/w/:workspace/leave',
    workspaceForm(options, 'links:read', async (_request, reply, here) => {
      try {
        await members.remove(here.workspace, acting(here), here.user.email);
        return reply.redirect('/account?done=left', 303);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        const back = { href: '/account', label: 'Back to your account' };
        return sendPage(
          reply,
          status,
          messagePage({ title: 'Not left', error: shown, frame: workspaceFrame(here), next: back }),
        );
      }
    }),
  );
}
