import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Invitation, Member, Workspace } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import type { AccountStore, KeyStore, WorkspaceStore } from '../../../core/ports/store.ts';
import { callerOf } from '../../../http/api-auth.ts';
import { apiRoute, type RouteParts } from '../../../http/management-api.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { LOCATION_HEADER, noContentResponse, okResponse } from '../../../http/operation-doc.ts';
import { apiAuditor } from '../audit-actor.ts';
import type { InvitationsService } from '../invitations.ts';
import type { Acting, MembersService } from '../members.ts';
import {
  CreateInvitationBody,
  InvitationListSchema,
  InvitationParams,
  InvitationSchema,
  MemberListSchema,
  MemberParams,
  MemberSchema,
  PatchMemberBody,
} from './member-schemas.ts';

/** /api/v1/members and /api/v1/invitations (docs/api.md §11), inside the management API's scope. */

export interface MemberRouteOptions {
  members: MembersService;
  invitations: InvitationsService;
  store: Pick<
    AccountStore & KeyStore & WorkspaceStore,
    'findWorkspaceById' | 'findUserById' | 'listLiveKeys'
  >;
  origin: string;
}

const memberJson = (m: Member) => ({ email: m.email, role: m.role, joined_at: m.joinedAt.toISOString() });
const invitationJson = (i: Invitation, url?: string) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  ...(url === undefined ? {} : { url }),
  created_at: i.createdAt.toISOString(),
  expires_at: i.expiresAt.toISOString(),
});

type Scope = 'members:read' | 'members:write';
const route = (scope: Scope, operationId: string, summary: string, description: string, parts: RouteParts) =>
  apiRoute({ tag: 'Members', scope, operationId, summary, description }, parts);

export async function memberRoutes(v1: FastifyInstance, options: MemberRouteOptions): Promise<void> {
  const { members, invitations } = options;
  const workspaceOf = async (request: FastifyRequest): Promise<Workspace> => {
    const workspace = await options.store.findWorkspaceById(callerOf(request).actor.workspaceId);
    if (!workspace) throw new Refusal('303');
    return workspace;
  };
  /** The key's maker, named in the audit log by their email (a key the operator made, by its prefix). */
  const acting = async (request: FastifyRequest): Promise<Acting> => {
    const caller = callerOf(request);
    return { ...caller.maker, by: await apiAuditor(options.store, caller) };
  };

  v1.get('/members', LIST_MEMBERS, async (request) => ({
    items: (await members.list(await workspaceOf(request))).map(memberJson),
    next_cursor: null,
  }));

  v1.patch<{ Params: { email: string }; Body: { role: string } }>(
    '/members/:email',
    PATCH_MEMBER,
    async (request) =>
      memberJson(
        await members.changeRole(
          await workspaceOf(request),
          await acting(request),
          request.params.email,
          request.body.role,
        ),
      ),
  );

  v1.delete<{ Params: { email: string } }>('/members/:email', DELETE_MEMBER, async (request, reply) => {
    await members.remove(await workspaceOf(request), await acting(request), request.params.email);
    return reply.code(204).send();
  });

  v1.get('/invitations', LIST_INVITATIONS, async (request) => ({
    items: (await invitations.pending(await workspaceOf(request))).map((i) => invitationJson(i)),
    next_cursor: null,
  }));

  v1.post<{ Body: { email: string; role: string } }>(
    '/invitations',
    CREATE_INVITATION,
    async (request, reply) => {
      const { email, role } = request.body;
      const made = await invitations.invite(await workspaceOf(request), await acting(request), email, role);
      return reply
        .code(201)
        .header('location', `${options.origin}/api/v1/invitations/${made.invitation.id}`)
        .send(invitationJson(made.invitation, made.url));
    },
  );

  v1.delete<{ Params: { id: number } }>('/invitations/:id', DELETE_INVITATION, async (request, reply) => {
    await invitations.revoke(await workspaceOf(request), await acting(request), request.params.id);
    return reply.code(204).send();
  });

  refuseOtherMethods(v1, '/members', ['GET']);
  refuseOtherMethods(v1, '/members/:email', ['PATCH', 'DELETE']);
  refuseOtherMethods(v1, '/invitations', ['GET', 'POST']);
  refuseOtherMethods(v1, '/invitations/:id', ['DELETE']);
}

const LIST_MEMBERS = route(
  'members:read',
  'listMembers',
  'List members',
  'Everyone in the key’s workspace with their role, owners first.',
  {
    ok: { 200: okResponse(MemberListSchema, 'The members.') },
  },
);
const PATCH_MEMBER = route(
  'members:write',
  'updateMember',
  'Change a member’s role',
  'An admin’s key cannot make or change an owner (315); the last owner cannot be demoted (319).',
  {
    params: MemberParams,
    body: PatchMemberBody,
    ok: { 200: okResponse(MemberSchema, 'The member as they are now.') },
    refusals: { 404: ['314'], 409: ['319'] },
  },
);
const DELETE_MEMBER = route(
  'members:write',
  'removeMember',
  'Remove a member',
  'The keys they made in the workspace are revoked with them; the last owner cannot be removed (319).',
  {
    params: MemberParams,
    ok: { 204: noContentResponse('Removed.') },
    refusals: { 404: ['314'], 409: ['319'] },
  },
);
const LIST_INVITATIONS = route(
  'members:read',
  'listInvitations',
  'List pending invitations',
  'Invitations neither accepted, revoked nor expired, newest first.',
  {
    ok: { 200: okResponse(InvitationListSchema, 'The pending invitations.') },
  },
);
const CREATE_INVITATION = route(
  'members:write',
  'createInvitation',
  'Invite someone',
  'A single-use link valid 7 days for that email and role, mailed when mail is configured. An admin’s key cannot invite an owner (315).',
  {
    body: CreateInvitationBody,
    ok: { 201: okResponse(InvitationSchema, 'Invited. `url` is given only now.', LOCATION_HEADER) },
  },
);
const DELETE_INVITATION = route(
  'members:write',
  'revokeInvitation',
  'Revoke an invitation',
  'Its link stops working at once.',
  {
    params: InvitationParams,
    ok: { 204: noContentResponse('Revoked.') },
    refusals: { 404: ['314'] },
  },
);
