import type { Plan, Workspace } from '../../core/entities.ts';
import type { AuditStore } from '../../core/ports/abuse-store.ts';
import type {
  BillingChange,
  BillingEventResult,
  BillingStore,
  WorkspaceBilling,
} from '../../core/ports/billing-store.ts';
import type { PaymentEvent, SubscriptionNews, SubscriptionStep } from '../../core/ports/payments.ts';
import type { AccountStore, WorkspaceStore } from '../../core/ports/store.ts';

/**
 * What a verified payment event does to a workspace (docs/api.md §17): the plan follows the
 * subscription. Every event is handed to the store once, by its id, in one transaction with the
 * change it makes (a replay is a `duplicate`, a change older than the workspace's last one
 * `stale`); events Snip does not act on are recorded too, so a replay stays ignored.
 */

export type BillingEventsStore = Pick<
  AccountStore & AuditStore & BillingStore & WorkspaceStore,
  | 'applyBillingEvent'
  | 'billingOf'
  | 'workspaceOfCustomer'
  | 'findWorkspaceById'
  | 'findPlanByName'
  | 'listPlans'
  | 'addAudit'
>;

export interface BillingEventsDeps {
  store: BillingEventsStore;
  /** The plan a workspace falls back to when its subscription ends. */
  freePlan: string;
  now: () => number;
  /** Told of every plan a workspace was moved to. */
  onPlanChanged?: (workspace: Workspace, from: string, to: string) => void;
  /** Told of an audit entry that could not be written (the change stands). */
  onAuditFailed?: (error: unknown) => void;
}

/** What the webhook answers: the store's verdict, or why Snip changed nothing. */
export type EventOutcome = { result: BillingEventResult } | { ignored: string };

/** The free plan is missing: nothing can fall back, so the event waits for Stripe to send it again. */
export class FreePlanMissing extends Error {
  override name = 'FreePlanMissing';
}

/** Within one second, a later kind of event is the more final one (see SubscriptionStep). */
const RANK: Readonly<Record<SubscriptionStep, number>> = { checkout: 1, created: 2, updated: 3, deleted: 4 };

/** Where the event stands among a workspace's events: its second, then its kind. */
export const orderOf = (event: PaymentEvent, step: SubscriptionStep): number =>
  event.created * 10 + RANK[step];

/**
 * What a status does to the plan: `grant` the subscription's plan (paid, or trialing), `keep` the
 * current one while payment is retried or awaited, `end` the subscription (the free plan).
 */
function effectOf(news: SubscriptionNews): 'grant' | 'keep' | 'end' {
  if (news.step === 'deleted') return 'end';
  switch (news.status ?? 'active') {
    case 'active':
    case 'trialing':
      return 'grant';
    case 'past_due':
    case 'incomplete':
      return 'keep';
    default:
      // canceled, unpaid, incomplete_expired, paused: no longer paid for.
      return 'end';
  }
}

function positiveId(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9][0-9]{0,15}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The workspace: the one whose customer this is, else the one Snip named to Stripe. */
async function workspaceOf(store: BillingEventsStore, news: SubscriptionNews) {
  const byCustomer = news.customerId ? await store.workspaceOfCustomer(news.customerId) : undefined;
  const id = byCustomer ?? positiveId(news.workspaceRef);
  const workspace = id === undefined ? undefined : await store.findWorkspaceById(id);
  return workspace && { workspace, customerKnown: byCustomer !== undefined };
}

/**
 * The plan of the subscription: the one sold at its price; without a price, the one Snip named
 * with the session. A price no plan sells at is unknown, whatever the metadata says.
 */
async function planOf(store: BillingEventsStore, news: SubscriptionNews): Promise<Plan | undefined> {
  if (news.step === 'checkout' && news.planName) return store.findPlanByName(news.planName);
  if (news.priceId) return (await store.listPlans()).find((plan) => plan.stripePriceId === news.priceId);
  return news.planName ? store.findPlanByName(news.planName) : undefined;
}

/** Another subscription than the workspace's (an old one ending, a second one bought). */
const otherSubscription = (billing: WorkspaceBilling | undefined, news: SubscriptionNews): boolean =>
  Boolean(billing?.subscriptionId && news.subscriptionId && billing.subscriptionId !== news.subscriptionId);

type Decision = { change: BillingChange; workspace: Workspace; plan?: Plan } | { ignored: string };

async function decide(deps: BillingEventsDeps, news: SubscriptionNews): Promise<Decision> {
  const { store } = deps;
  const found = await workspaceOf(store, news);
  if (!found) return { ignored: 'unknown workspace' };
  const { workspace } = found;
  const billing = await store.billingOf(workspace.id);
  const effect = effectOf(news);
  // A subscription that is not the workspace's may take over only by being paid for.
  if (effect !== 'grant' && otherSubscription(billing, news)) return { ignored: 'another subscription' };
  const change: BillingChange = { workspaceId: workspace.id, status: news.status ?? null };
  if (news.subscriptionId) change.subscriptionId = news.subscriptionId;
  // The customer is remembered once; one customer belongs to one workspace (a unique index).
  if (news.customerId && !found.customerKnown && !billing?.customerId) {
    if ((await store.workspaceOfCustomer(news.customerId)) === undefined) change.customerId = news.customerId;
  }
  if (effect === 'keep') return { change, workspace };
  const plan = effect === 'grant' ? await planOf(store, news) : await store.findPlanByName(deps.freePlan);
  if (!plan && effect === 'end') throw new FreePlanMissing(`no plan named "${deps.freePlan}"`);
  if (!plan) return { ignored: news.priceId ? 'unknown price' : 'unknown plan' };
  return { change: { ...change, planId: plan.id }, workspace, plan };
}

async function audit(deps: BillingEventsDeps, workspace: Workspace, plan: Plan, event: PaymentEvent) {
  if (plan.id === workspace.plan.id) return;
  deps.onPlanChanged?.(workspace, workspace.plan.name, plan.name);
  await deps.store
    .addAudit({
      actorId: null,
      actor: 'stripe',
      workspaceId: workspace.id,
      action: 'workspace.plan',
      target: workspace.slug,
      before: { plan: workspace.plan.name },
      after: { plan: plan.name, event: event.id },
    })
    .catch((error: unknown) => deps.onAuditFailed?.(error));
}

/** Handles one verified event; a store that cannot answer throws (the webhook answers 503). */
export function billingEvents(deps: BillingEventsDeps) {
  return async (event: PaymentEvent): Promise<EventOutcome> => {
    const record = async (ignored: string): Promise<EventOutcome> => {
      await deps.store.applyBillingEvent({ id: event.id, type: event.type, order: 0 }, undefined, deps.now());
      return { ignored };
    };
    if (!event.news) return record('event type not handled');
    const decision = await decide(deps, event.news);
    if ('ignored' in decision) return record(decision.ignored);
    const order = orderOf(event, event.news.step);
    const result = await deps.store.applyBillingEvent(
      { id: event.id, type: event.type, order },
      decision.change,
      deps.now(),
    );
    if (result === 'applied' && decision.plan) await audit(deps, decision.workspace, decision.plan, event);
    return { result };
  };
}
