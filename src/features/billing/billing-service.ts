import type { Plan, User, Workspace } from '../../core/entities.ts';
import type { BillingStore, WorkspaceBilling } from '../../core/ports/billing-store.ts';
import type { PaymentGateway } from '../../core/ports/payments.ts';
import type { AccountStore, LinkStore } from '../../core/ports/store.ts';
import { workspacePath } from '../../web/frame.ts';
import type { PageError } from '../../web/notices.ts';

/**
 * Settings → Billing (docs/api.md §17): what a workspace is on and uses, the plans it can move to,
 * and, with Stripe, Checkout (one customer per workspace, made at its first checkout and kept) and
 * the customer portal. Without Stripe the operator changes plans: the page names their contact.
 */

export type BillingServiceStore = Pick<
  AccountStore & BillingStore & LinkStore,
  'billingOf' | 'setStripeCustomer' | 'listPlans' | 'findPlanByName' | 'countLiveLinks'
>;

export interface BillingServiceDeps {
  store: BillingServiceStore;
  payments: PaymentGateway | undefined;
  baseUrl: URL;
  upgradeUrl: string | undefined;
  mailFrom: string | undefined;
}

/** Whom an owner asks for another plan without a payment provider. */
export type OperatorContact =
  | { kind: 'url'; href: string }
  | { kind: 'mail'; href: string; address: string }
  | { kind: 'none' };

export interface BillingOverview {
  plan: Plan;
  /** Live links against the plan's quota. */
  links: number;
  /** The public plans, cheapest first. */
  plans: Plan[];
  billing: WorkspaceBilling | undefined;
  contact: OperatorContact;
}

/** Where the owner is sent, or why not (a status and the reason shown on the page). */
export type Leave = { url: string } | { refused: PageError & { status: number } };

/** MAIL_FROM's address, bare or inside `Name <address>`. */
export function operatorContact(
  upgradeUrl: string | undefined,
  mailFrom: string | undefined,
): OperatorContact {
  if (upgradeUrl) return { kind: 'url', href: upgradeUrl };
  const address = mailFrom && (/<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim());
  if (address && /^[^\s@<>]+@[^\s@<>]+$/.test(address))
    return { kind: 'mail', href: `mailto:${address}`, address };
  return { kind: 'none' };
}

const priceOf = (plan: Plan): number => plan.price?.amount ?? 0;

const refused = (status: number, code: string, message: string): Leave => ({
  refused: { status, code, message },
});

export function billingService(deps: BillingServiceDeps) {
  const { store, payments } = deps;
  const address = (workspace: Workspace, rest: string) =>
    new URL(workspacePath(workspace.slug, `/billing${rest}`), deps.baseUrl).href;

  /** The workspace's customer: the one it has, else one made now and kept. */
  async function customerOf(gateway: PaymentGateway, workspace: Workspace, owner: User): Promise<string> {
    const known = (await store.billingOf(workspace.id))?.customerId;
    if (known) return known;
    const customerId = await gateway.createCustomer({
      workspaceId: workspace.id,
      name: workspace.name,
      email: owner.email,
      // Two checkouts at once make one customer; a workspace made anew under the same id another.
      onceKey: `snip-customer-${workspace.id}-${workspace.createdAt.getTime()}`,
    });
    await store.setStripeCustomer(workspace.id, customerId);
    return customerId;
  }

  return {
    async overview(workspace: Workspace): Promise<BillingOverview> {
      const [links, plans, billing] = await Promise.all([
        store.countLiveLinks(workspace.id),
        store.listPlans(),
        store.billingOf(workspace.id),
      ]);
      const listed = plans.filter((plan) => plan.public).sort((a, b) => priceOf(a) - priceOf(b));
      return {
        plan: workspace.plan,
        links,
        plans: listed,
        billing,
        contact: operatorContact(deps.upgradeUrl, deps.mailFrom),
      };
    },

    /** A Checkout session for the plan, paid by the workspace's customer. */
    async checkout(workspace: Workspace, owner: User, planName: string): Promise<Leave> {
      if (!payments) return refused(404, 'no-payments', 'This Snip takes no payments: ask the operator.');
      const plan = planName === '' ? undefined : await store.findPlanByName(planName);
      // Only what /pricing lists is for sale: an unlisted plan is the operator's to give, and is
      // answered as if it did not exist, so a name typed into the form reveals nothing.
      if (!plan?.public || !plan.stripePriceId)
        return refused(404, 'no-such-plan', 'There is no such plan to buy.');
      if (plan.id === workspace.plan.id)
        return refused(409, 'plan-current', 'The workspace is on this plan already.');
      const customerId = await customerOf(payments, workspace, owner);
      const url = await payments.checkout({
        customerId,
        priceId: plan.stripePriceId,
        workspaceId: workspace.id,
        plan: plan.name,
        successUrl: address(workspace, '?checkout=done'),
        cancelUrl: address(workspace, ''),
      });
      return { url };
    },

    /** The customer portal of the workspace's customer (it has one after its first checkout). */
    async portal(workspace: Workspace): Promise<Leave> {
      if (!payments) return refused(404, 'no-payments', 'This Snip takes no payments: ask the operator.');
      const customerId = (await store.billingOf(workspace.id))?.customerId;
      if (!customerId) return refused(409, 'no-customer', 'This workspace has not paid through Stripe yet.');
      return { url: await payments.portal(customerId, address(workspace, '')) };
    },
  };
}

export type BillingService = ReturnType<typeof billingService>;
