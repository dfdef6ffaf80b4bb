import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Invitation, Workspace } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { type Frame, workspacePath } from '../../../web/frame.ts';
import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { messagePage } from '../../../web/message-page.ts';
import { csrfField } from '../../../web/notices.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import { frameOf, signedInForm } from '../../../web/session/handlers.ts';
import { type SessionDeps, signedIn } from '../../../web/session/session-cookie.ts';
import { type InvitationsService, invitationPath } from '../invitations.ts';
import type { SignupMode } from '../signup-rules.ts';

/**
 * GET /invitations/<token>: what an invitation offers, and POST …/accept to take it — only signed
 * in as the email it was made for. A used, revoked, expired or unknown link grants nothing and says so.
 */

export interface InvitationRouteOptions extends SessionDeps {
  invitations: InvitationsService;
  signupMode: SignupMode;
}

function invitationPage(
  { invitation, workspace }: { invitation: Invitation; workspace: Workspace },
  token: string,
  frame: Frame | undefined,
  signupMode: SignupMode,
) {
  const path = invitationPath(token);
  const next = encodeURIComponent(path);
  // An invitation is what SIGNUP=invite asks for: its link offers the sign-up too.
  const signUp =
    signupMode !== 'closed'
      ? html` <a class="button secondary" href="/signup?next=${next}&amp;email=${encodeURIComponent(invitation.email)}">Create an account</a>`
      : html``;
  const action = frame
    ? html`<form method="post" action="${path}/accept" class="stack">${csrfField(frame.csrfToken)}
<button type="submit">Join ${workspace.name}</button></form>`
    : html`<p><a class="button" href="/login?next=${next}">Sign in as ${invitation.email}</a>${signUp}</p>`;
  return page({
    title: `Join ${workspace.name}`,
    narrow: true,
    frame,
    noindex: true,
    body: html`<section class="card" data-state="invitation">
<h1>Join ${workspace.name}</h1>
<p>You are invited to the workspace <strong>${workspace.name}</strong> as <strong data-role="${invitation.role}">${invitation.role}</strong>.</p>
<p class="hint">This invitation is for ${invitation.email} and works once, until ${invitation.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.</p>
${action}
</section>`,
  });
}

function refused(reply: FastifyReply, error: unknown, frame?: Frame) {
  const { status, error: shown } = refusedOn(reply, error);
  return sendPage(reply, status, messagePage({ title: 'Invitation', error: shown, frame }));
}

export async function invitationRoutes(app: FastifyInstance, options: InvitationRouteOptions): Promise<void> {
  const { invitations } = options;

  app.get<{ Params: { token: string } }>('/invitations/:token', async (request, reply) => {
    const user = await signedIn(options, request);
    const frame = user && frameOf(user);
    const { token } = request.params;
    const open = await invitations.open(token);
    if (!open) return refused(reply, new Refusal('invitation-gone'), frame);
    if (user && user.user.email !== open.invitation.email) {
      return refused(reply, new Refusal('invitation-other-email'), frame);
    }
    reply.header('cache-control', 'no-store');
    return sendPage(reply, 200, invitationPage(open, token, frame, options.signupMode));
  });

  app.post<{ Params: { token: string } }>(
    '/invitations/:token/accept',
    signedInForm(options, async (request, reply, user) => {
      try {
        const workspace = await invitations.accept((request.params as { token: string }).token, user.user);
        return reply.redirect(workspacePath(workspace.slug), 303);
      } catch (error) {
        return refused(reply, error, frameOf(user));
      }
    }),
  );
}
