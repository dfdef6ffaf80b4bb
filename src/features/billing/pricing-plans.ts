import { may, type Role } from '../../core/authorization.ts';
import type { Plan, PlanPrice } from '../../core/entities.ts';
import { workspacePath } from '../../web/frame.ts';

/**
 * What /pricing shows (docs/api.md §17), decided apart from the markup: which plans, in which order,
 * what each costs in words, and what the person looking can do about each.
 */

/** Who looks at the page, and for which workspace. */
export type Viewer =
  /** Signed out; `signupOpen` unless SIGNUP is invite or closed. */
  | { kind: 'visitor'; signupOpen: boolean }
  /** Signed in but a member of no workspace (all of them left). */
  | { kind: 'homeless' }
  | { kind: 'member'; slug: string; name: string; role: Role; plan: Plan };

/** What a card offers. `current` and `ask-owner` are words, not buttons. */
export type Action =
  | { kind: 'signup'; href: string }
  | { kind: 'signin'; href: string }
  | { kind: 'dashboard'; href: string }
  | { kind: 'upgrade'; href: string }
  | { kind: 'change'; href: string }
  /** Without a payment provider: UPGRADE_URL, or a mail to the operator naming the plan and workspace. */
  | { kind: 'contact'; href: string }
  | { kind: 'current' }
  | { kind: 'ask-owner' };

/** The public plans: the free ones first, then the cheapest, ties by name. */
export function publicPlans(plans: readonly Plan[]): Plan[] {
  const cost = (plan: Plan) => plan.price?.amount ?? -1;
  return plans
    .filter((plan) => plan.public === true)
    .sort((a, b) => cost(a) - cost(b) || a.name.localeCompare(b.name));
}

/** A plan without a price (or with a price of nothing) costs nothing. */
export const isFree = (plan: Plan): boolean => !plan.price || plan.price.amount === 0;

/** "€9.00" for 900 EUR: minor units by the currency's own number of decimals (JPY none, KWD three). */
export function priceText(price: PlanPrice, locale = 'en'): string {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: price.currency });
  } catch {
    // A currency the CLI would have refused, stored some other way: the page still shows the plan.
    return `${price.amount} ${price.currency}`;
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(price.amount / 10 ** digits);
}

export const count = (value: number): string => new Intl.NumberFormat('en').format(value);

/** Whom an owner asks for a plan when no payment provider is set (see operatorContact). */
export interface Contact {
  href: string;
  label: string;
  /** A mailto: the plan and workspace go in its subject. */
  mail: boolean;
}

/** The address of an owner's request for a plan: UPGRADE_URL, or the mailto with a subject naming both. */
export function contactFor(contact: Contact, plan: Plan, workspace: { slug: string; name: string }): string {
  if (!contact.mail) return contact.href;
  const subject = `Plan ${plan.name} for the workspace ${workspace.name} (${workspace.slug})`;
  return `${contact.href}?subject=${encodeURIComponent(subject)}`;
}

/**
 * The call to action of one plan's card for this viewer. `contact` is given when upgrades are the
 * operator's (no payment provider): an owner's button then asks them rather than opening Billing.
 */
export function actionFor(viewer: Viewer, plan: Plan, contact?: Contact): Action {
  if (viewer.kind === 'visitor') {
    return viewer.signupOpen ? { kind: 'signup', href: '/signup' } : { kind: 'signin', href: '/login' };
  }
  if (viewer.kind === 'homeless') return { kind: 'dashboard', href: '/dashboard' };
  if (viewer.plan.id === plan.id) return { kind: 'current' };
  if (!may(viewer.role, 'plan:change')) return { kind: 'ask-owner' };
  if (contact) return { kind: 'contact', href: contactFor(contact, plan, viewer) };
  const billing = workspacePath(viewer.slug, '/billing');
  // From a free plan to a paid one is an upgrade the billing page starts; anything else it manages.
  if (isFree(viewer.plan) && !isFree(plan)) {
    return { kind: 'upgrade', href: `${billing}?plan=${encodeURIComponent(plan.name)}` };
  }
  return { kind: 'change', href: billing };
}

/** Whom an owner asks for another plan when no payment provider is set: UPGRADE_URL, or MAIL_FROM. */
export function operatorContact(
  upgradeUrl: string | undefined,
  mailFrom: string | undefined,
): Contact | undefined {
  if (upgradeUrl) return { href: upgradeUrl, label: upgradeUrl.replace(/^mailto:/, ''), mail: false };
  // MAIL_FROM may be `Name <address>`: the mailto takes the address alone.
  const address = mailFrom ? (/<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim()) : undefined;
  return address ? { href: `mailto:${address}`, label: address, mail: true } : undefined;
}
