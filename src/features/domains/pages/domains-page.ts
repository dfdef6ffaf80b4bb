import { displayHost } from '../../../core/domain-host.ts';
import type { Domain, Workspace } from '../../../core/entities.ts';
import { DEFAULT_DOMAIN_ID } from '../../../core/link-key.ts';
import { type Frame, here, mayHere } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { CHALLENGE_LABEL, CLAIM_TTL_MS, type DomainView } from '../domains.ts';

/**
 * GET /w/<slug>/domains (docs/api.md §12): the domains the workspace sees, the TXT record each of
 * its own waits for, and, for roles that may change domains, the forms that add, verify, set,
 * remove and choose the default one.
 */

export interface DomainsPageView {
  frame: Frame;
  workspace: Workspace;
  domains: readonly DomainView[];
  done?: string;
  error?: PageError;
  /** The host the add form sent, kept when it was refused. */
  draft?: string;
}

const DONE: Record<string, string> = {
  added: 'The domain was added. Create its TXT record, then verify it.',
  verified: 'The domain is verified: links can be made on it.',
  pending: 'The TXT record was not found yet. DNS changes can take a while; try again later.',
  saved: 'The domain’s settings were saved.',
  removed: 'The domain was removed.',
  'default-set': 'The default domain for new links was changed.',
};

const kindOf = (domain: Domain): string =>
  domain.id === DEFAULT_DOMAIN_ID ? 'default' : domain.shared ? 'shared' : 'own';

const verified = (domain: Domain): boolean => domain.verifiedAt !== null;

/** A safe id fragment for a host (copy buttons name their source by id). */
const idOf = (host: string): string => host.replace(/[^a-z0-9-]/g, '-');

/** An internationalized host as people read it, its ASCII form (what DNS and the API know) beside. */
function hostName(host: string): SafeHtml {
  const shown = displayHost(host);
  return shown === host ? html`${host}` : html`${shown} <span class="hint" data-ascii>${host}</span>`;
}

/** When an unverified domain's claim on its host lapses, to the minute, in UTC. */
const expiresOn = (domain: Domain): string =>
  new Date(domain.createdAt.getTime() + CLAIM_TTL_MS).toISOString().slice(0, 16).replace('T', ' ');

function redirectFact(target: string | null): SafeHtml {
  return target === null ? html`<span class="hint">none</span>` : html`${target}`;
}

function statusFact(domain: Domain): SafeHtml {
  return verified(domain)
    ? html`<span data-state="verified">Verified</span>`
    : html`<span data-state="pending">Pending verification</span>`;
}

/** What a domain is and does; a list of facts rather than a table, so it reads on a phone too. */
function facts(view: DomainView): SafeHtml {
  const { domain } = view;
  return html`<dl class="facts">
  <dt>Kind</dt><dd data-fact="kind">${kindOf(domain)}</dd>
  <dt>Status</dt><dd data-fact="status">${statusFact(domain)}</dd>
  <dt>HTTPS</dt><dd data-fact="https">${domain.https ? 'on' : 'off'}</dd>
  <dt>Root redirect</dt><dd data-fact="root-redirect">${redirectFact(domain.rootRedirect)}</dd>
  <dt>Not-found redirect</dt><dd data-fact="not-found-redirect">${redirectFact(domain.notFoundRedirect)}</dd>
  <dt>Live links</dt><dd data-fact="links">${view.links.toLocaleString('en-US')}</dd>
</dl>`;
}

/** The TXT record that proves the domain is the workspace's, to copy, and the button that checks it. */
function verification(frame: Frame, domain: Domain): SafeHtml {
  const id = idOf(domain.host);
  return html`<div class="notice" data-state="verification">
<p><strong>Pending verification.</strong> Create this TXT record at your DNS provider, then verify before ${expiresOn(domain)} UTC: an unverified domain is removed then, and another workspace that verifies it first gets it.</p>
<dl class="facts">
  <dt>Type</dt><dd><code>TXT</code></dd>
  <dt>Name</dt><dd class="copyable"><code id="txt-name-${id}" data-txt-name>${CHALLENGE_LABEL}.${domain.host}</code> <button type="button" class="secondary small" data-copy-from="txt-name-${id}">Copy the name</button></dd>
  <dt>Value</dt><dd class="copyable"><code id="txt-value-${id}" data-txt-value>${domain.verificationToken}</code> <button type="button" class="secondary small" data-copy-from="txt-value-${id}">Copy the value</button></dd>
</dl>
<form method="post" action="${here(frame, '/domains/verify')}" class="inline">${csrfField(frame.csrfToken)}
<input type="hidden" name="host" value="${domain.host}"><button type="submit" data-action="verify">Verify<span class="visually-hidden"> ${domain.host}</span></button></form>
</div>`;
}

/** HTTPS, root and not-found redirects of one of the workspace's own domains. */
function settingsForm(frame: Frame, domain: Domain): SafeHtml {
  return html`<form method="post" action="${here(frame, '/domains/settings')}" class="stack" data-form="settings">
  ${csrfField(frame.csrfToken)}
  <input type="hidden" name="host" value="${domain.host}">
  <label class="check"><input type="checkbox" name="https" value="on"${domain.https ? html` checked` : html``}> Short URLs start with https://</label>
  <label>Root redirect <span class="hint">where the domain’s / goes; empty: nowhere (404)</span>
    <input type="url" name="root_redirect" maxlength="2048" placeholder="https://www.example.com/" value="${domain.rootRedirect ?? ''}"></label>
  <label>Not-found redirect <span class="hint">where unknown codes go; empty: the 404 page</span>
    <input type="url" name="not_found_redirect" maxlength="2048" placeholder="https://www.example.com/missing" value="${domain.notFoundRedirect ?? ''}"></label>
  <button type="submit" class="secondary">Save<span class="visually-hidden"> ${domain.host}</span></button>
</form>`;
}

/** One domain: its facts and, for the workspace's own and a role that may change them, its forms. */
function domainCard(frame: Frame, view: DomainView, changes: boolean): SafeHtml {
  const { domain } = view;
  const id = idOf(domain.host);
  const forms = changes && view.own;
  const remove = html`<form method="post" action="${here(frame, '/domains/remove')}" class="inline" data-confirm="Remove ${displayHost(domain.host)}? Its links must be deleted first.">${csrfField(frame.csrfToken)}
<input type="hidden" name="host" value="${domain.host}"><button type="submit" class="danger small" data-action="remove">Remove<span class="visually-hidden"> ${domain.host}</span></button></form>`;
  return html`<section class="card" data-domain="${domain.host}" data-kind="${kindOf(domain)}" aria-labelledby="domain-${id}">
<h2 id="domain-${id}">${hostName(domain.host)}</h2>
${facts(view)}
${forms && !verified(domain) ? verification(frame, domain) : html``}
${forms ? html`${settingsForm(frame, domain)}${remove}` : html``}
</section>`;
}

function addCard(view: DomainsPageView): SafeHtml {
  return html`<section class="card" id="add-domain" aria-labelledby="add-heading">
<h2 id="add-heading">Add a domain</h2>
<form method="post" action="${here(view.frame, '/domains')}" class="row">
  ${csrfField(view.frame.csrfToken)}
  <label class="grow">Host <input type="text" name="host" required maxlength="253" placeholder="go.example.com" autocomplete="off" spellcheck="false" value="${view.draft ?? ''}"></label>
  <button type="submit">Add</button>
</form>
<p class="hint">Point the host at this service (a CNAME or A record), then prove it is yours with the TXT record shown after adding.</p>
</section>`;
}

/** The domain new links go on when none is named: the default, a shared one or a verified own one. */
function defaultCard(view: DomainsPageView): SafeHtml {
  const usable = view.domains.filter(({ domain }) => verified(domain));
  const chosen = view.workspace.defaultDomain;
  const option = ({ domain }: DomainView) => {
    const value = domain.id === DEFAULT_DOMAIN_ID ? '' : domain.host;
    const selected = (chosen ?? '') === value ? html` selected` : html``;
    return html`<option value="${value}"${selected}>${displayHost(domain.host)}${domain.id === DEFAULT_DOMAIN_ID ? ' (the default domain)' : ''}</option>`;
  };
  return html`<section class="card" id="default-domain" aria-labelledby="default-heading">
<h2 id="default-heading">Default domain for new links</h2>
<form method="post" action="${here(view.frame, '/domains/default')}" class="row">
  ${csrfField(view.frame.csrfToken)}
  <label class="grow">Domain <select name="host">${usable.map(option)}</select></label>
  <button type="submit" class="secondary">Set as default</button>
</form>
</section>`;
}

export function domainsPage(view: DomainsPageView): string {
  const { frame } = view;
  const changes = mayHere(frame, 'domains:write');
  return page({
    title: 'Domains',
    current: here(frame, '/domains'),
    frame,
    styles: ['dashboard.css'],
    scripts: ['dashboard.js'],
    body: html`<h1>Domains of ${view.workspace.name}</h1>
<p class="hint">Links are made on the default domain, a shared one, or one of the workspace’s own once its TXT record is verified.</p>
${doneNotice(view.done, DONE)}
${errorNotice(view.error)}
${changes ? defaultCard(view) : html``}
${view.domains.map((domain) => domainCard(frame, domain, changes))}
${changes ? addCard(view) : html``}`,
  });
}
