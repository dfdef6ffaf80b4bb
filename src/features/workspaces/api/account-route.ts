import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { may, ROLES } from '../../../core/authorization.ts';
import type { Workspace } from '../../../core/entities.ts';
import { type RateState, Refusal } from '../../../core/errors.ts';
import type { Authenticated } from '../../../core/ports/key-auth.ts';
import type {
  AccountStore as AccountPort,
  KeyStore,
  LinkStore,
  WorkspaceStore,
} from '../../../core/ports/store.ts';
import { callerOf } from '../../../http/api-auth.ts';
import { apiRoute } from '../../../http/management-api.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { okResponse, operationDoc } from '../../../http/operation-doc.ts';
import { apiAuditor } from '../audit-actor.ts';
import type { WorkspaceAdmin } from '../workspace-admin.ts';

/**
 * GET /api/v1/workspace, and GET /api/v1/account, its first name (docs/api.md §7.3, §11): the key's
 * workspace, its plan and this hour's use. `email` is the key's maker (an owner for the operator's).
 * PATCH /api/v1/workspace changes its time zone (§18), as Settings does: a key of an admin or owner.
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
    timezone: Type.String({
      description:
        'The IANA time zone the pages enter and show dates in (docs/api.md §18); `UTC` by default.',
    }),
    track_conversions: Type.Boolean({
      description:
        "Its links' default for conversion tracking (§20): a link's own `track_conversions` wins. false by default.",
    }),
    ...ACCOUNT_FIELDS,
  },
  { $id: 'Workspace', additionalProperties: false },
);

const PatchWorkspaceBody = Type.Object(
  {
    timezone: Type.Optional(
      Type.String({ maxLength: 64, description: 'An IANA time zone name such as `Europe/Paris`, or `UTC`.' }),
    ),
    track_conversions: Type.Optional(
      Type.Boolean({
        description: 'Hand every human click of its links a click id, unless a link says otherwise.',
      }),
    ),
  },
  { additionalProperties: false },
);

export type AccountStore = Pick<
  AccountPort & LinkStore & WorkspaceStore & KeyStore,
  'findWorkspaceById' | 'countLiveLinks' | 'findUserById' | 'listMembers' | 'listLiveKeys'
>;

async function makerEmail(store: AccountStore, caller: Authenticated): Promise<string> {
  const { userId } = caller.maker;
  const maker = userId === null ? undefined : await store.findUserById(userId);
  if (maker) return maker.email;
  const owner = (await store.listMembers(caller.actor.workspaceId)).find((m) => m.role === 'owner');
  return owner?.email ?? '';
}

async function workspaceOf(store: AccountStore, caller: Authenticated): Promise<Workspace> {
  const workspace = await store.findWorkspaceById(caller.actor.workspaceId);
  if (!workspace) throw new Refusal('303', 'The workspace of this key no longer exists.');
  return workspace;
}

export async function workspaceResource(store: AccountStore, caller: Authenticated, known?: Workspace) {
  const { actor, rate, maker } = caller;
  const [workspace, used, email] = await Promise.all([
    known ?? workspaceOf(store, caller),
    store.countLiveLinks(actor.workspaceId),
    makerEmail(store, caller),
  ]);
  const { plan } = workspace;
  return {
    slug: workspace.slug,
    name: workspace.name,
    personal: workspace.personalOf !== null,
    role: maker.role,
    timezone: workspace.timezone,
    track_conversions: workspace.trackConversions,
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
  const { slug, name, personal, role, timezone, track_conversions, ...account } = await workspaceResource(
    store,
    caller,
  );
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

const PATCH_WORKSPACE = apiRoute(
  {
    tag: 'Workspace',
    scope: undefined,
    operationId: 'patchWorkspace',
    summary: 'Change the workspace',
    description:
      "Changes the workspace's `timezone` and `track_conversions`; a field not sent stays as it is. Only a key whose maker's role may change the workspace's settings (admin, owner): any other is 403 `315`.",
  },
  {
    body: PatchWorkspaceBody,
    ok: { 200: okResponse(WorkspaceSchema, 'The workspace.') },
    refusals: { 403: ['315'] },
  },
);

export async function accountApiRoutes(
  v1: FastifyInstance,
  {
    store,
    admin,
    setTracking,
  }: {
    store: AccountStore;
    admin: WorkspaceAdmin;
    /** The workspace's default for conversion tracking (features/conversions). */
    setTracking: (workspace: Workspace, track: boolean) => Promise<Workspace>;
  },
): Promise<void> {
  v1.get(
    '/account',
    doc('getAccount', 'Get the account (the workspace, by its first name)', AccountSchema),
    (request) => accountResource(store, callerOf(request)),
  );
  v1.get('/workspace', doc('getWorkspace', 'Get the workspace', WorkspaceSchema), (request) =>
    workspaceResource(store, callerOf(request)),
  );
  v1.patch<{ Body: { timezone?: string; track_conversions?: boolean } }>(
    '/workspace',
    PATCH_WORKSPACE,
    async (request) => {
      const caller = callerOf(request);
      if (!may(caller.maker.role, 'settings:write')) {
        throw new Refusal('315', "The role of this key's maker may not change the workspace's settings.");
      }
      let workspace = await workspaceOf(store, caller);
      if (request.body.timezone !== undefined) {
        const by = await apiAuditor(store, caller);
        workspace = await admin.setTimezone(workspace, request.body.timezone, by);
      }
      if (request.body.track_conversions !== undefined) {
        workspace = await setTracking(workspace, request.body.track_conversions);
      }
      return workspaceResource(store, caller, workspace);
    },
  );
  refuseOtherMethods(v1, '/account', ['GET']);
  refuseOtherMethods(v1, '/workspace', ['GET', 'PATCH']);
}
