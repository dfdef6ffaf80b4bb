import { defang } from '../../core/defang.ts';
import { RESOLUTIONS, type Report, type Resolution } from '../../core/moderation.ts';
import type { ConsoleLink } from '../../core/ports/console-store.ts';
import { field, positiveInt } from '../../web/form-fields.ts';
import type { Frame } from '../../web/frame.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { frameOf } from '../../web/session/handlers.ts';
import { type AdminPageOptions, PAGE_ROWS } from './admin-deps.ts';
import { consolePage, doneOf, rowForm, timeOf } from './admin-nav.ts';
import { defanged, ownerCell, workspaceCell } from './console-links.ts';
import type { Section, SectionAction } from './section.ts';

/**
 * /admin/reports (docs/api.md §13, §22): the visitors' reports, the open ones first of all; each
 * resolved in one click by disabling its link, suspending the link's workspace, blocking the
 * target's host, or dismissing it (audited as report.resolve and the action itself). The reported
 * short URL and its target are shown defanged, as text, with the link's workspace and owner: no
 * report is one click from the page it reports. What a visitor wrote is shown as text, never as
 * markup, any URL in it defanged too.
 */

const PATH = '/admin/reports';

const DONE: Record<string, string> = {
  resolved: 'The report is resolved.',
};

const RESOLUTION_LABELS: Readonly<Record<Resolution, string>> = {
  disable: 'Disable the link',
  suspend: 'Suspend its workspace',
  block: 'Block the target’s host',
  dismiss: 'Dismiss',
};

const BUTTON_CLASSES: Readonly<Record<Resolution, string>> = {
  disable: 'danger small',
  suspend: 'danger small',
  block: 'secondary small',
  dismiss: 'secondary small',
};

/** A visitor's text with every URL in it defanged. */
const defangedText = (text: string) => text.replace(/\b(?:https?|ftps?):\/\/\S+/gi, (url) => defang(url));

type Shown = 'open' | 'all';

function filterNav(shown: Shown): SafeHtml {
  const entry = (value: Shown, label: string) =>
    value === shown
      ? html`<a class="button small" href="${PATH}?status=${value}" aria-current="true" data-status="${value}">${label}</a>`
      : html`<a class="button secondary small" href="${PATH}?status=${value}" data-status="${value}">${label}</a>`;
  return html`<nav class="presets" aria-label="Which reports">${entry('open', 'Open')}${entry('all', 'All')}</nav>`;
}

/** One button per resolution, each the whole form's action: one click resolves the report. */
function resolveForm(frame: Frame, report: Report, shown: Shown, live: boolean): SafeHtml {
  const buttons = RESOLUTIONS.filter((action) => live || action === 'block' || action === 'dismiss').map(
    (action) =>
      html`<button type="submit" name="action" value="${action}" class="${BUTTON_CLASSES[action]}" data-action="${action}">${RESOLUTION_LABELS[action]}<span class="visually-hidden"> (report ${report.id})</span></button>`,
  );
  return rowForm(frame, `${PATH}/resolve`, { id: String(report.id), status: shown }, html`${buttons}`, 'row');
}

function reportCard(frame: Frame, report: Report, found: ConsoleLink | undefined, shown: Shown): SafeHtml {
  const open = report.resolvedAt === null;
  const gone = html`<span class="hint" data-state="link-gone">the link was deleted</span>`;
  const target = found ? defanged(found.link.longUrl) : gone;
  const resolution = open
    ? html`<span class="badge" data-state="open">open</span>`
    : html`<span class="badge" data-state="resolved">${report.resolution ?? 'resolved'}</span>${report.resolvedAt ? html` ${timeOf(report.resolvedAt)}` : html``}`;
  return html`<article class="card" data-report="${report.id}" data-status="${open ? 'open' : 'resolved'}" aria-labelledby="report-${report.id}">
<h2 id="report-${report.id}">Report ${report.id} <span class="hint">${report.reason}</span></h2>
<dl class="facts">
  <dt>Reported</dt><dd>${timeOf(report.createdAt)}</dd>
  <dt>Short URL</dt><dd>${defanged(report.url, 'url')}</dd>
  <dt>Target</dt><dd>${target}</dd>
  <dt>Workspace</dt><dd data-fact="workspace">${found ? workspaceCell(found.workspace) : gone}</dd>
  <dt>Owner</dt><dd data-fact="owner">${found ? ownerCell(found.workspace) : gone}</dd>
  <dt>Reason</dt><dd data-fact="reason">${report.reason}</dd>
  <dt>Comment</dt><dd data-fact="comment">${report.comment === '' ? html`<span class="hint">none</span>` : defangedText(report.comment)}</dd>
  <dt>Email</dt><dd data-fact="email">${report.email ?? html`<span class="hint">none</span>`}</dd>
  <dt>Status</dt><dd data-fact="status">${resolution}</dd>
</dl>
${open ? resolveForm(frame, report, shown, found !== undefined) : html``}
</article>`;
}

/** The reports section of the console. */
export function reportsSection(options: AdminPageOptions): Section {
  const { reports } = options.abuse;
  return {
    path: PATH,
    keep: ['status'],
    async render(user, fields, error) {
      const shown: Shown = field(fields, 'status') === 'all' ? 'all' : 'open';
      const [list, openCount] = await Promise.all([
        reports.list(shown === 'open', PAGE_ROWS),
        reports.countOpen(),
      ]);
      const found = await options.store.consoleLinks([...new Set(list.map((report) => report.linkId))]);
      const byId = new Map(found.map((row) => [row.link.id, row]));
      const frame = frameOf(user);
      const cards = list.map((report) => reportCard(frame, report, byId.get(report.linkId), shown));
      return consolePage({
        title: 'Reports',
        path: PATH,
        frame,
        done: { code: doneOf(field(fields, 'done')), messages: DONE },
        error,
        body: html`${filterNav(shown)}
<p class="hint" data-open="${openCount}">${openCount.toLocaleString('en-US')} open ${openCount === 1 ? 'report' : 'reports'}${list.length === PAGE_ROWS ? `; the newest ${PAGE_ROWS} shown` : ''}.</p>
${cards.length === 0 ? html`<p class="empty" data-state="no-reports">${shown === 'open' ? 'No open reports.' : 'No reports yet.'}</p>` : cards}`,
      });
    },
  };
}

/** The reports section's form: resolve the report of the form's `id` with its `action`. */
export function reportActions(options: AdminPageOptions): Record<string, SectionAction> {
  const { reports } = options.abuse;
  return {
    async resolve(body, actor) {
      await reports.resolve(actor, positiveInt(field(body, 'id')) ?? Number.NaN, field(body, 'action'));
      return 'resolved';
    },
  };
}
