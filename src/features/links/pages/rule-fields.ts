import type { Link } from '../../../core/entities.ts';
import { MAX_CLICKS_LIMIT, MAX_LINK_PASSWORD } from '../../../core/link-fields.ts';
import { DEVICES, MAX_RULES } from '../../../core/targeting.ts';
import { DEFAULT_TIME_ZONE } from '../../../core/time-zone.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { type RuleForm, type RuleRow, SPARE_RULE_ROWS } from './rule-form.ts';

/**
 * The rule fields of the create and edit forms (docs/api.md §8.2–8.3): expiry in the workspace's
 * time zone (§18), a visit limit, a write-only password and a fixed number of targeting rows, all
 * usable without script.
 */

export const DEVICE_NAMES: Record<string, string> = {
  ios: 'iOS',
  android: 'Android',
  mobile: 'Phone or tablet',
  desktop: 'Desktop',
};

function deviceOptions(selected: string): SafeHtml {
  return html`<option value="">Any device</option>${DEVICES.map(
    (device) =>
      html`<option value="${device}"${selected === device ? html` selected` : html``}>${DEVICE_NAMES[device] ?? device}</option>`,
  )}`;
}

function ruleRow(row: RuleRow, i: number): SafeHtml {
  const which = html`<span class="visually-hidden"> (rule ${i + 1})</span>`;
  return html`<li class="rule" data-rule="${i}">
<label>Device${which} <select name="rule_device_${i}">${deviceOptions(row.device)}</select></label>
<label>Country${which} <input type="text" name="rule_country_${i}" maxlength="2" pattern="[A-Za-z]{2}" placeholder="DE" autocomplete="off" spellcheck="false" value="${row.country}"></label>
<label>Language${which} <input type="text" name="rule_language_${i}" maxlength="3" pattern="[A-Za-z]{2,3}" placeholder="fr" autocomplete="off" spellcheck="false" value="${row.language}"></label>
<label class="rule-url">Then go to${which} <input type="text" name="rule_url_${i}" inputmode="url" spellcheck="false" placeholder="https://example.com/page" value="${row.url}"></label>
</li>`;
}

function rulesFieldset(rows: readonly RuleRow[]): SafeHtml {
  const count = Math.max(rows.length, Math.min(rows.length + SPARE_RULE_ROWS, MAX_RULES));
  const all = Array.from(
    { length: count },
    (_, i) => rows[i] ?? { device: '', country: '', language: '', url: '' },
  );
  return html`<fieldset class="rules">
<legend>Targeting rules</legend>
<p class="help">Send some visitors elsewhere: the first matching row wins, everyone else gets the long URL. Empty rows are ignored${rows.length + SPARE_RULE_ROWS > MAX_RULES ? '' : '; more rows appear after saving'}.</p>
<ol>${all.map(ruleRow)}</ol>
</fieldset>`;
}

/**
 * The fields; `link` is the link being changed (absent on the create form), for the password's
 * state. A password is never shown back, not even after a refusal.
 */
export function ruleFields(form: RuleForm, link?: Link): SafeHtml {
  const expires = form.expiresAt ?? '';
  const seconds = /T\d{2}:\d{2}:\d{2}/.test(expires);
  const hasPassword = link?.passwordHash != null;
  const passwordHint = hasPassword ? 'Set. Leave empty to keep it.' : 'Optional. Visitors must enter it.';
  return html`<div class="limits">
<label>Expires (${form.zone ?? DEFAULT_TIME_ZONE})
  <input type="datetime-local" name="expires_at"${seconds ? html` step="1"` : html``} value="${expires}">
  <span class="help">Optional. Afterwards the link stops working.</span></label>
<label>Visit limit
  <input type="number" name="max_clicks" min="1" max="${MAX_CLICKS_LIMIT}" step="1" inputmode="numeric" value="${form.maxClicks ?? ''}">
  <span class="help">Optional. Clicks before it stops working.</span></label>
<label>${hasPassword ? 'New password' : 'Password'}
  <input type="password" name="password" autocomplete="new-password" maxlength="${MAX_LINK_PASSWORD}">
  <span class="help">${passwordHint}</span></label>
</div>
${form.password === '' ? html`` : html`<p class="hint" data-retype="password">The password you typed is never sent back: type it again.</p>`}
${
  hasPassword
    ? html`<label class="check"><input type="checkbox" name="remove_password" value="1"${form.removePassword ? html` checked` : html``}> Remove the password</label>`
    : html``
}
${rulesFieldset(form.rules ?? [])}`;
}

/** Whether a sent form names any rule, so that the create form shows them open. */
export function namesRules(form: RuleForm | undefined): boolean {
  return (
    !!form && (!!form.expiresAt || !!form.maxClicks || form.password !== '' || (form.rules ?? []).length > 0)
  );
}
