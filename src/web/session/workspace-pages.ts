import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Action, may, type Role } from '../../core/authorization.ts';
import type { MembershipOf, User, Workspace } from '../../core/entities.ts';
import type { AccountStore, WorkspaceStore } from '../../core/ports/store.ts';
import { type Frame, workspacePath } from '../frame.ts';
import { messagePage } from '../message-page.ts';
import { sendPage } from '../send-page.ts';
import { hasSessionToken } from './csrf.ts';
import { refuseForgedForm } from './handlers.ts';
import {
  CONFIRM_EMAIL_PATH,
  mustConfirmEmail,
  type SessionDeps,
  type SignedIn,
  signedIn,
} from './session-cookie.ts';

/**
 * Pages of a workspace, /w/<slug>/…: the signed-in user must be a member (else the workspace does
 * not exist for them: 404) and their role must allow the page's action (else 403), as the one
 * table in core/authorization.ts says. No handler decides either for itself.
 */

export interface InWorkspace extends SignedIn {
  workspace: Workspace;
  role: Role;
  memberships: MembershipOf[];
}

export interface WorkspaceDeps extends SessionDeps {
  workspaces: Pick<AccountStore & WorkspaceStore, 'workspacesOf' | 'setLastWorkspace'>;
}

type Handler = (request: FastifyRequest, reply: FastifyReply, here: InWorkspace) => Promise<unknown>;

export function workspaceFrame(here: InWorkspace): Frame {
  const { workspace, role, memberships } = here;
  return {
    email: here.user.email,
    csrfToken: here.session.csrfToken,
    operator: here.user.operator,
    workspace: {
      slug: workspace.slug,
      name: workspace.name,
      role,
      all: memberships.map((m) => ({ slug: m.workspace.slug, name: m.workspace.name })),
      timeZone: workspace.timezone,
    },
  };
}

/** Where the user's workspace pages start: the last one they opened, else their first. */
export function homeOf(user: User, memberships: readonly MembershipOf[]): Workspace | undefined {
  const last = memberships.find((m) => m.workspace.id === user.lastWorkspaceId);
  return (last ?? memberships[0])?.workspace;
}

export function homePath(user: User, memberships: readonly MembershipOf[], rest = ''): string {
  const home = homeOf(user, memberships);
  return home ? workspacePath(home.slug, rest) : '/account';
}

function refuse(reply: FastifyReply, status: 403 | 404, frame?: Frame) {
  const error =
    status === 404
      ? { code: 'not-found', message: 'There is no such workspace, or you are not a member of it.' }
      : {
          code: 'forbidden',
          message: 'Your role in this workspace does not allow this. Ask an admin or owner.',
        };
  return sendPage(
    reply,
    status,
    messagePage({ title: status === 404 ? 'Not found' : 'Not allowed', error, frame }),
  );
}

async function enter(
  deps: WorkspaceDeps,
  request: FastifyRequest,
  user: SignedIn,
): Promise<InWorkspace | undefined> {
  const slug = (request.params as { workspace?: string }).workspace ?? '';
  const memberships = await deps.workspaces.workspacesOf(user.user.id);
  const membership = memberships.find((m) => m.workspace.slug === slug);
  if (!membership) return undefined;
  if (user.user.lastWorkspaceId !== membership.workspace.id) {
    await deps.workspaces.setLastWorkspace(user.user.id, membership.workspace.id);
  }
  return { ...user, workspace: membership.workspace, role: membership.role, memberships };
}

function guarded(deps: WorkspaceDeps, action: Action, form: boolean, handler: Handler) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await signedIn(deps, request);
    if (!user) return reply.redirect('/login', 303);
    if (mustConfirmEmail(deps, user)) return reply.redirect(CONFIRM_EMAIL_PATH, 303);
    const here = await enter(deps, request, user);
    const frame = { email: user.user.email, csrfToken: user.session.csrfToken };
    if (!here) return refuse(reply, 404, frame);
    if (form && !hasSessionToken(request, user.session.csrfToken))
      return refuseForgedForm(reply, workspaceFrame(here));
    if (!may(here.role, action)) return refuse(reply, 403, workspaceFrame(here));
    return handler(request, reply, here);
  };
}

/** A page of the workspace that needs `action`. */
export function workspacePage(deps: WorkspaceDeps, action: Action, handler: Handler) {
  return guarded(deps, action, false, handler);
}

/** A form of the workspace that needs `action`: checked before anything changes. */
export function workspaceForm(deps: WorkspaceDeps, action: Action, handler: Handler) {
  return guarded(deps, action, true, handler);
}
