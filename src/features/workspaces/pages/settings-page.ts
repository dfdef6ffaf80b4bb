import type { Workspace } from '../../../core/entities.ts';
import { timeZones } from '../../../core/time-zone.ts';
import { type Frame, here, mayHere } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { when } from '../../../web/page-parts.ts';
import { siteFacts } from '../../../web/site-facts.ts';
import { WORKSPACE_NAME_MAX } from '../workspace-admin.ts';

/** GET /w/<slug>/settings: the workspace's name and time zone, address, plan and default domain. */

export interface SettingsView {
  frame: Frame;
  workspace: Workspace;
  /** The host short links are made on: the workspace's default domain, else BASE_URL's. */
  shortHost: string;
  done?: string;
  error?: PageError;
  draft?: string;
  /** The zone a refused form sent. */
  draftZone?: string;
}

const DONE: Record<string, string> = {
  renamed: 'The workspace was renamed.',
  saved: 'The settings were saved.',
  conversions: 'Conversion tracking was saved.',
};

/**
 * Every zone this Snip knows, the workspace's selected: a long list, which type-ahead walks. A zone
 * set by the API under a name the list spells otherwise (Asia/Kolkata) is offered too, so that
 * saving the name never changes it.
 */
function zoneOptions(selected: string): SafeHtml[] {
  const zones = timeZones().includes(selected) ? timeZones() : [selected, ...timeZones()];
  return zones.map((zone) =>
    zone === selected
      ? html`<option value="${zone}" selected>${zone}</option>`
      : html`<option value="${zone}">${zone}</option>`,
  );
}

export function settingsPage(view: SettingsView): string {
  const { workspace } = view;
  const { plan } = workspace;
  return page({
    title: 'Settings',
    current: here(view.frame, '/settings'),
    frame: view.frame,
    styles: ['dashboard.css'],
    body: html`<h1>Settings of ${workspace.name}</h1>
${doneNotice(view.done, DONE)}
${errorNotice(view.error)}
<section class="card" aria-labelledby="name-heading">
<h2 id="name-heading">Name and time zone</h2>
<form method="post" action="${here(view.frame, '/settings')}" class="row">
  ${csrfField(view.frame.csrfToken)}
  <label class="grow">Name <input type="text" name="name" required maxlength="${WORKSPACE_NAME_MAX}" value="${view.draft ?? workspace.name}"></label>
  <label class="grow">Time zone <select name="timezone" aria-describedby="timezone-hint">${zoneOptions(view.draftZone ?? workspace.timezone)}</select></label>
  <button type="submit">Save</button>
</form>
<p class="hint" id="timezone-hint">Link expiry dates and the times on link pages are entered and shown in this zone.</p>
</section>
<section class="card" aria-labelledby="conversions-heading">
<h2 id="conversions-heading">Conversions</h2>
<form method="post" action="${here(view.frame, '/settings/conversions')}" class="row">
  ${csrfField(view.frame.csrfToken)}
  <label class="check grow"><input type="checkbox" name="track_conversions" value="1" aria-describedby="conversions-hint"${workspace.trackConversions ? html` checked` : html``}> <span>Track conversions on every link</span></label>
  <button type="submit">Save</button>
</form>
<p class="hint" id="conversions-hint">Each click gets a random <code>snip_id</code> in the target's query; your site reports sign-ups and sales with it through the <a href="/docs">API</a> (Conversions). A link can say otherwise on its own page.</p>
</section>
<section class="card" aria-labelledby="facts-heading">
<h2 id="facts-heading">The workspace</h2>
<dl class="facts">
  <dt>Address</dt><dd><code>${here(view.frame)}</code></dd>
  <dt>Kind</dt><dd>${workspace.personalOf === null ? 'team' : 'personal'}</dd>
  <dt>Plan</dt><dd data-plan="${plan.name}">${plan.name} — ${plan.apiAccess ? 'with API access' : 'without API access'}, up to ${plan.urlQuota.toLocaleString('en-US')} links and ${plan.rateLimitPerHour.toLocaleString('en-US')} requests an hour</dd>
  <dt>Default domain</dt><dd data-domain="${view.shortHost}"><code>${view.shortHost}</code></dd>
  <dt>Created</dt><dd>${when(workspace.createdAt)}</dd>
</dl>
<p class="hint">${
      mayHere(view.frame, 'plan:change')
        ? html`You change the plan on <a href="${here(view.frame, '/billing')}" data-link="billing">Billing</a>`
        : 'Owners change the plan'
    }${siteFacts().pricing ? html`; the plans are compared on <a href="/pricing">Pricing</a>.` : '.'}</p>
<p class="hint"><a href="${here(view.frame, '/audit')}" data-link="audit">The audit log</a> lists what admins and operators did in this workspace.</p>
</section>`,
  });
}
