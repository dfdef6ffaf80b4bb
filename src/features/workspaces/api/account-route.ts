import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ROLES } from '../../../core/authorization.ts';
import { type RateState, Refusal } from '../../../core/errors.ts';
import type { Authenticated } from '../../../core/ports/key-auth.ts';
import type { AccountStore as AccountPort, LinkStore, WorkspaceStore } from '../../../core/ports/store.ts';
import { callerOf } from '../../../http/api-auth.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { okResponse, operationDoc } from '../../../http/operation-doc.ts';

/**
 * GET /api/v1/workspace, and GET /api/v1/account, its first name (docs/api.md §7.3, §11): the key's
 * workspace, its plan and this hour's use. `email` is the key's maker (an owner for the operator's).
 */

const ACCOUNT_FIELDS = {
  email: Type.String(),
  plan: Type.String(),
  api_access: Type.Boolean(),
  url_quota: Type.Integer(),
  links_used: Type.Integer(),
  rate_limit_per_hour: Type.Integer(),
  requests_this_hour: Type.Integer({ description: 'This request included.' }),
};

export const AccountSchema = Type.Object(ACCOUNT_FIELDS, { $id: 'Account', additionalProperties: false });

export const WorkspaceSchema = Type.Object(
  {
    slug: Type.String(),
    name: Type.String(),
    personal: Type.Boolean(),
    role: Type.Union(
      ROLES.map((role) => Type.Literal(role)),
      { description: "The role of the key's maker, which bounds what the key may do." },
    ),
    ...ACCOUNT_FIELDS,
  },
  { $id: 'Workspace', additionalProperties: false },
);

export type AccountStore = Pick<
  AccountPort & LinkStore & WorkspaceStore,
  'findWorkspaceById' | 'countLiveLinks' | 'findUserById' | 'listMembers'
>;

async function makerEmail(store: AccountStore, caller: Authenticated): Promise<string> {
  const { userId } = caller.maker;
  const maker = userId === null ? undefined : await store.findUserById(userId);
  if (maker) return maker.email;
  const owner = (await store.listMembers(caller.actor.workspaceId)).find((m) => m.role === 'owner');
  return owner?.email ?? '';
}

export async function workspaceResource(store: AccountStore, caller: Authenticated) {
  const { actor, rate, maker } = caller;
  const [workspace, used, email] = await Promise.all([
    store.findWorkspaceById(actor.workspaceId),
    store.countLiveLinks(actor.workspaceId),
    makerEmail(store, caller),
  ]);
  if (!workspace) throw new Refusal('303', 'The workspace of this key no longer exists.');
  const { plan } = workspace;
  return {
    slug: workspace.slug,
    name: workspace.name,
    personal: workspace.personalOf !== null,
    role: maker.role,
    email,
    plan: plan.name,
    api_access: plan.apiAccess,
    url_quota: plan.urlQuota,
    links_used: used,
    rate_limit_per_hour: plan.rateLimitPerHour,
    requests_this_hour: requestsThisHour(rate),
  };
}

const requestsThisHour = (rate: RateState) => Math.min(rate.limit, rate.limit - rate.remaining);

export async function accountResource(store: AccountStore, caller: Authenticated) {
  const { slug, name, personal, role, ...account } = await workspaceResource(store, caller);
  return account;
}

const doc = (
  operationId: string,
  summary: string,
  schema: typeof AccountSchema | typeof WorkspaceSchema,
) => ({
  schema: operationDoc({
    operationId,
    summary,
    description: "The key's workspace: its plan, quota and use of this hour's window.",
    tag: 'Workspace',
    scope: undefined,
    ok: { 200: okResponse(schema, 'The workspace.') },
  }),
});

export async function accountApiRoutes(
  v1: FastifyInstance,
  { store }: { store: AccountStore },
): Promise<void> {
  v1.get(
    '/account',
    doc('getAccount', 'Get the account (the workspace, by its first name)', AccountSchema),
    (request) => accountResource(store, callerOf(request)),
  );
  v1.get('/workspace', doc('getWorkspace', 'Get the workspace', WorkspaceSchema), (request) =>
    workspaceResource(store, callerOf(request)),
  );
  refuseOtherMethods(v1, '/account', ['GET']);
  refuseOtherMethods(v1, '/workspace', ['GET']);
}
