import type { Plan, Workspace } from '../../core/entities.ts';
import { type Frame, here } from '../../web/frame.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { page } from '../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../web/notices.ts';
import type { BillingOverview, OperatorContact } from './billing-service.ts';

/**
 * GET /w/<slug>/billing (docs/api.md §17), the owners' page: the plan, what of it the workspace
 * uses, and the public plans. With Stripe each plan sold there has an Upgrade button (Checkout) and
 * the customer has Manage billing (the portal); without it each plan's button asks the operator
 * (UPGRADE_URL, else a mail to MAIL_FROM naming the plan and the workspace). A customer's page
 * never shows a command: moving a workspace is the operator's business (docs/api.md §22).
 */

export interface BillingPageView {
  frame: Frame;
  workspace: Workspace;
  overview: BillingOverview;
  /** Payments go through Stripe. */
  stripe: boolean;
  done?: string;
  error?: PageError;
}

const DONE: Record<string, string> = {
  checkout: 'Thank you. The plan changes as soon as Stripe confirms the payment, usually within seconds.',
};

const figure = (n: number) => n.toLocaleString('en-US');

/** A monthly price in its currency (minor units as the currency counts them); none: free. */
export function priceText(plan: Plan): string {
  if (!plan.price) return 'Free';
  const { amount, currency } = plan.price;
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return `${format.format(amount / 10 ** digits)} a month`;
  } catch {
    // A currency this runtime does not know (the CLI refuses them; an old row may hold one).
    return `${figure(amount)} ${currency} (minor units) a month`;
  }
}

function planFacts(plan: Plan): SafeHtml {
  return html`<dt>Price</dt><dd data-fact="price">${priceText(plan)}</dd>
  <dt>Links</dt><dd data-fact="quota">up to ${figure(plan.urlQuota)}</dd>
  <dt>Requests an hour</dt><dd data-fact="rate">${figure(plan.rateLimitPerHour)}</dd>
  <dt>API access</dt><dd data-fact="api">${plan.apiAccess ? 'yes' : 'no'}</dd>`;
}

/** Past due: Stripe retries the payment and the plan stays meanwhile; over quota: nothing is lost. */
function warnings(view: BillingPageView): SafeHtml {
  const { overview } = view;
  const pastDue =
    overview.billing?.status === 'past_due'
      ? html`<p class="notice error" data-notice="past-due">Stripe could not take the last payment. The plan stays while Stripe tries again; update the payment details under Manage billing.</p>`
      : html``;
  const over =
    overview.links >= overview.plan.urlQuota
      ? html`<p class="notice error" data-notice="over-quota">This workspace holds ${figure(overview.links)} links and its plan allows ${figure(overview.plan.urlQuota)}. Every link keeps working and counting clicks; new links are refused until the plan allows more.</p>`
      : html``;
  return html`${pastDue}${over}`;
}

function currentCard(view: BillingPageView): SafeHtml {
  const { overview, frame } = view;
  const { plan, billing } = overview;
  const manage =
    view.stripe && billing?.customerId
      ? html`<form method="post" action="${here(frame, '/billing/portal')}" class="inline">${csrfField(frame.csrfToken)}<button type="submit" class="secondary" data-action="portal">Manage billing</button></form>
<p class="hint">Payment details, invoices and cancelling are on Stripe’s pages.</p>`
      : html``;
  const status =
    view.stripe && billing?.status
      ? html`<dt>Subscription</dt><dd data-fact="status">${billing.status.replace(/_/g, ' ')}</dd>`
      : html``;
  return html`<section class="card" aria-labelledby="plan-heading">
<h2 id="plan-heading">Current plan</h2>
<dl class="facts">
  <dt>Plan</dt><dd data-plan="${plan.name}">${plan.name}</dd>
  ${planFacts(plan)}
  <dt>Links made</dt><dd data-usage="links">${figure(overview.links)} <span class="hint">of ${figure(plan.urlQuota)}</span></dd>
  ${status}
</dl>
${manage}
</section>`;
}

/** The workspace pays a subscription now: other plans are switched to in the portal, not bought again. */
const subscribed = (view: BillingPageView): boolean =>
  view.stripe &&
  Boolean(view.overview.billing?.customerId) &&
  ['active', 'trialing', 'past_due'].includes(view.overview.billing?.status ?? '');

/** The subject of an owner's mail to the operator: the plan and the workspace, by name and address. */
export function upgradeSubject(plan: Plan, workspace: Workspace): string {
  return `Plan ${plan.name} for the workspace ${workspace.name} (${workspace.slug})`;
}

/** Where the button of a plan leads without a payment provider: UPGRADE_URL, else a mail to the operator. */
export function contactHref(contact: OperatorContact, plan: Plan, workspace: Workspace): string | undefined {
  if (contact.kind === 'url') return contact.href;
  if (contact.kind === 'mail')
    return `${contact.href}?subject=${encodeURIComponent(upgradeSubject(plan, workspace))}`;
  return undefined;
}

/** What an owner can do about one listed plan: nothing (theirs), buy it, switch in the portal, or ask. */
function planAction(view: BillingPageView, plan: Plan): SafeHtml {
  const { frame, overview, workspace } = view;
  if (plan.id === overview.plan.id)
    return html`<p data-state="current"><strong>Your current plan</strong></p>`;
  if (subscribed(view) && (plan.stripePriceId || !plan.price))
    return plan.price
      ? html`<p class="hint" data-state="switch-in-portal">Switch to it under Manage billing.</p>`
      : html`<p class="hint" data-state="cancel-in-portal">Cancel the subscription under Manage billing: the workspace returns to it when the paid period ends.</p>`;
  const verb = (plan.price?.amount ?? 0) >= (overview.plan.price?.amount ?? 0) ? 'Upgrade' : 'Switch';
  if (view.stripe && plan.stripePriceId)
    return html`<form method="post" action="${here(frame, '/billing/checkout')}">${csrfField(frame.csrfToken)}<input type="hidden" name="plan" value="${plan.name}"><button type="submit" data-action="checkout">${verb} to ${plan.name}</button></form>`;
  // The operator moves the workspace: the button asks them, naming the plan and the workspace.
  const href = contactHref(overview.contact, plan, workspace);
  if (href === undefined)
    return html`<p class="hint" data-state="ask-operator">Ask the operator of this Snip to move the workspace to it.</p>`;
  return html`<p><a class="button" href="${href}" data-action="contact" data-contact="${overview.contact.kind}" rel="noopener">${verb} to ${plan.name}</a></p>`;
}

function plansCards(view: BillingPageView): SafeHtml {
  const { plans } = view.overview;
  if (plans.length === 0)
    return html`<section class="card" aria-labelledby="plans-heading"><h2 id="plans-heading">Plans</h2><p class="empty" data-state="no-plans">This Snip lists no plans.</p></section>`;
  // The grid of cards the stats pages lay their breakdowns in.
  return html`<h2 id="plans-heading">Plans</h2>
<div class="breakdowns">
${plans.map(
  (plan, i) => html`<section class="card" data-plan-option="${plan.name}" aria-labelledby="plan-${i}">
<h3 id="plan-${i}">${plan.name}</h3>
${plan.description ? html`<p>${plan.description}</p>` : html``}
<dl class="facts">${planFacts(plan)}</dl>
${planAction(view, plan)}
</section>`,
)}
</div>`;
}

function contactText(contact: OperatorContact): SafeHtml {
  if (contact.kind === 'url')
    return html`The operator of this Snip changes plans: <a href="${contact.href}" data-contact="url" rel="noopener">ask for another plan</a>`;
  if (contact.kind === 'mail')
    return html`The operator of this Snip changes plans: write to <a href="${contact.href}" data-contact="mail">${contact.address}</a>`;
  return html`<span data-contact="none">The operator of this Snip changes plans: ask them for another one</span>`;
}

/** Without Stripe (or for a plan it does not sell): whom the plan buttons ask. */
function operatorCard(view: BillingPageView): SafeHtml {
  const { overview } = view;
  const unsold = overview.plans.some(
    (plan) => plan.id !== overview.plan.id && plan.price && !plan.stripePriceId,
  );
  if (view.stripe && !unsold) return html``;
  return html`<section class="card" aria-labelledby="upgrade-heading">
<h2 id="upgrade-heading">Changing plan</h2>
<p>${contactText(overview.contact)}. Each plan’s button asks for it, naming this workspace.</p>
<p class="hint">Changing plan never loses data: over a smaller quota every link keeps working and counting, and only new links are refused.</p>
</section>`;
}

export function billingPage(view: BillingPageView): string {
  return page({
    title: 'Billing',
    current: here(view.frame, '/billing'),
    frame: view.frame,
    styles: ['dashboard.css'],
    body: html`<h1>Billing of ${view.workspace.name}</h1>
${doneNotice(view.done, DONE)}
${errorNotice(view.error)}
${warnings(view)}
${currentCard(view)}
${plansCards(view)}
${operatorCard(view)}`,
  });
}
