import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Actor } from '../../../core/entities.ts';
import { type RateState, Refusal } from '../../../core/errors.ts';
import type { Store } from '../../../core/ports/store.ts';
import { callerOf } from '../../../http/api-auth.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { okResponse, operationDoc } from '../../../http/operation-doc.ts';

/** GET /api/v1/account (docs/api.md §7.3): the key's account, its plan and this hour's use. */

export const AccountSchema = Type.Object(
  {
    email: Type.String(),
    plan: Type.String(),
    api_access: Type.Boolean(),
    url_quota: Type.Integer(),
    links_used: Type.Integer(),
    rate_limit_per_hour: Type.Integer(),
    requests_this_hour: Type.Integer({ description: 'This request included.' }),
  },
  { $id: 'Account', additionalProperties: false },
);

export type AccountStore = Pick<Store, 'findAccountById' | 'countLiveLinks'>;

export async function accountResource(store: AccountStore, actor: Actor, rate: RateState) {
  const [account, used] = await Promise.all([
    store.findAccountById(actor.accountId),
    store.countLiveLinks(actor.accountId),
  ]);
  if (!account) throw new Refusal('303', 'The account of this key no longer exists.');
  return {
    email: account.email,
    plan: account.plan.name,
    api_access: account.plan.apiAccess,
    url_quota: account.plan.urlQuota,
    links_used: used,
    rate_limit_per_hour: account.plan.rateLimitPerHour,
    requests_this_hour: Math.min(rate.limit, rate.limit - rate.remaining),
  };
}

const GET_ACCOUNT = {
  schema: operationDoc({
    operationId: 'getAccount',
    summary: 'Get the account',
    description: "The key's account: its plan, quota and use of this hour's window.",
    tag: 'Account',
    scope: undefined,
    ok: { 200: okResponse(AccountSchema, 'The account.') },
  }),
};

export async function accountApiRoutes(
  v1: FastifyInstance,
  { store }: { store: AccountStore },
): Promise<void> {
  v1.get('/account', GET_ACCOUNT, async (request) => {
    const { actor, rate } = callerOf(request);
    return accountResource(store, actor, rate);
  });
  refuseOtherMethods(v1, '/account', ['GET']);
}
