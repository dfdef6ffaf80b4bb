import type { Plan } from '../../core/entities.ts';
import type { Frame } from '../../web/frame.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { page } from '../../web/layout.ts';
import {
  type Action,
  actionFor,
  type Contact,
  count,
  isFree,
  priceText,
  type Viewer,
} from './pricing-plans.ts';

/**
 * GET /pricing (docs/api.md §17): the public plans side by side — price, links, hourly requests, API
 * access — each with what the person looking can do: sign up, upgrade, change plan, or ask an owner.
 */

export interface PricingView {
  /** The public plans, in the order they are shown. */
  plans: readonly Plan[];
  viewer: Viewer;
  frame: Frame | undefined;
  /** Whom to ask for another plan when upgrades are the operator's (no payment provider). */
  contact: Contact | undefined;
}

function callToAction(action: Action, plan: Plan): SafeHtml {
  const named = html`<span class="visually-hidden"> to ${plan.name}</span>`;
  switch (action.kind) {
    case 'signup':
      return html`<a class="button" href="${action.href}" data-cta="signup">Sign up</a>`;
    case 'signin':
      return html`<a class="button" href="${action.href}" data-cta="signin">Sign in</a>`;
    case 'dashboard':
      return html`<a class="button secondary" href="${action.href}" data-cta="dashboard">Open your dashboard</a>`;
    case 'upgrade':
      return html`<a class="button" href="${action.href}" data-cta="upgrade">Upgrade${named}</a>`;
    case 'change':
      return html`<a class="button secondary" href="${action.href}" data-cta="change">Change plan${named}</a>`;
    case 'contact':
      return html`<a class="button" href="${action.href}" data-cta="contact" rel="noopener">Ask for it${html`<span class="visually-hidden">: ${plan.name}</span>`}</a>`;
    case 'current':
      return html`<span class="hint" data-cta="current">Your workspace is on this plan.</span>`;
    case 'ask-owner':
      return html`<span class="hint" data-cta="ask-owner">Ask an owner of the workspace to change its plan.</span>`;
  }
}

function priceLine(plan: Plan): SafeHtml {
  if (isFree(plan) || !plan.price) return html`<p class="price" data-fact="price"><strong>Free</strong></p>`;
  return html`<p class="price" data-fact="price"><strong>${priceText(plan.price)}</strong> a month</p>`;
}

function planCard(plan: Plan, viewer: Viewer, contact: Contact | undefined): SafeHtml {
  const current = viewer.kind === 'member' && viewer.plan.id === plan.id;
  const heading = `plan-${plan.name}`;
  return html`<article class="card" data-plan="${plan.name}"${current ? html` data-current="true" aria-current="true"` : html``} aria-labelledby="${heading}">
<h2 id="${heading}">${plan.name}${current ? html` <span class="badge" data-state="current">Current plan</span>` : html``}</h2>
${priceLine(plan)}
${plan.description ? html`<p data-fact="description">${plan.description}</p>` : html``}
<dl class="facts">
  <dt>Links</dt><dd data-fact="url-quota">${count(plan.urlQuota)}</dd>
  <dt>Requests per hour</dt><dd data-fact="rate-limit">${count(plan.rateLimitPerHour)}</dd>
  <dt>API access</dt><dd data-fact="api-access">${plan.apiAccess ? 'Yes' : 'No'}</dd>
</dl>
<p class="actions">${callToAction(actionFor(viewer, plan, contact), plan)}</p>
</article>`;
}

function intro(view: PricingView): SafeHtml {
  const { viewer } = view;
  if (viewer.kind !== 'member') {
    return html`<p class="lead">Every plan checks each target before a link is made and counts the clicks of people, not of bots.</p>`;
  }
  return html`<p class="lead" data-fact="workspace">Plans for <strong>${viewer.name}</strong>, on the <strong>${viewer.plan.name}</strong> plan now.</p>`;
}

function contactNote(view: PricingView): SafeHtml {
  if (!view.contact) return html``;
  return html`<p class="hint" data-part="contact">Plans are changed by the operator of this Snip: ask at <a href="${view.contact.href}">${view.contact.label}</a>.</p>`;
}

/** The page, for at least one public plan (without any, /pricing is the not-found page). */
export function pricingPage(view: PricingView): string {
  const cards = html`<div class="features plans">${view.plans.map((plan) => planCard(plan, view.viewer, view.contact))}</div>`;
  return page({
    chrome: 'site',
    title: 'Pricing',
    description: 'The plans of this Snip: links, requests per hour, API access and what each costs.',
    current: '/pricing',
    frame: view.frame,
    // The landing page's grid of cards, and the facts and badges of the signed-in pages.
    styles: ['landing.css', 'dashboard.css'],
    body: html`<h1>Plans and pricing</h1>
${intro(view)}
${cards}
${contactNote(view)}`,
  });
}
