import { DAY_MS } from '../../core/days.ts';
import { html } from '../../web/html.ts';
import { frameOf } from '../../web/session/handlers.ts';
import type { AdminPageOptions } from './admin-deps.ts';
import { consolePage } from './admin-nav.ts';
import { consoleLinksTable } from './console-links.ts';
import { dayCounts } from './day-counts.ts';
import { CHART_DAYS, topWorkspacesCard, totalsCard, trendCards } from './overview-parts.ts';
import type { Section } from './section.ts';

/**
 * /admin (docs/api.md §13, §22): the instance at a glance — totals, sign-ups and new links per day,
 * the newest links with their workspace and owner, the workspaces clicked most — then what waits
 * for the operator (open reports), what is in force (rules, lists), and where each section is.
 * Each figure is one read of the store, along an index (docs/adr/050); the per-day counts of days
 * that have ended are read once a day (day-counts.ts).
 */

const PATH = '/admin';
const NEWEST = 50;
const TOP = 10;

const PARTS = [
  ['/admin/users', 'Users', 'Find a user by email; suspend, resume, make an operator, delete.'],
  ['/admin/workspaces', 'Workspaces', 'Find a workspace; change its plan, suspend, resume, delete.'],
  ['/admin/links', 'Links', 'Find links of every workspace by code, host or URL; disable or enable them.'],
  ['/admin/reports', 'Reports', 'Resolve visitors’ reports: disable, suspend, block or dismiss.'],
  ['/admin/blocklists', 'Blocklists', 'Host rules: import a list, block or unblock a host.'],
  ['/admin/audit', 'Audit log', 'Every operator and workspace admin action, newest first.'],
] as const;

/** The console's first page. */
export function overviewSection(options: AdminPageOptions): Section {
  const { reports, blocklists } = options.abuse;
  const { store } = options;
  const signupsPerDay = dayCounts((fromDay) => store.signupsPerDay(fromDay));
  const newLinksPerDay = dayCounts((fromDay) => store.newLinksPerDay(fromDay));
  return {
    path: PATH,
    keep: [],
    async render(user, _fields, error) {
      const today = Math.floor(Date.now() / DAY_MS);
      const since = today - CHART_DAYS + 1;
      const [totals, signups, made, newest, top, open, lists] = await Promise.all([
        store.consoleTotals(today),
        signupsPerDay(since, today),
        newLinksPerDay(since, today),
        store.newestLinks(NEWEST),
        store.topWorkspacesByClicks(since, TOP),
        reports.countOpen(),
        blocklists.list(),
      ]);
      const rules = blocklists.ruleCount();
      return consolePage({
        title: 'Operator console',
        path: PATH,
        frame: frameOf(user),
        styles: ['stats.css'],
        error,
        body: html`${totalsCard(totals)}
<section class="card" aria-labelledby="now-heading">
<h2 id="now-heading">Now</h2>
<dl class="stats">
  <div><dt>Open reports</dt><dd data-open-reports="${open}"><a href="/admin/reports">${open.toLocaleString('en-US')}</a></dd></div>
  <div><dt>Rules in force</dt><dd data-rules="${rules}">${rules.toLocaleString('en-US')}</dd></div>
  <div><dt>Blocklists</dt><dd data-lists="${lists.length}"><a href="/admin/blocklists">${lists.length.toLocaleString('en-US')}</a></dd></div>
</dl>
${lists.length === 0 ? html`` : html`<p class="hint">Lists: ${lists.map((list, i) => html`${i === 0 ? '' : ', '}<code>${list.name}</code> (${list.ruleCount.toLocaleString('en-US')})`)}</p>`}
</section>
${trendCards(signups, made, today)}
<section class="card" aria-labelledby="newest-heading">
<h2 id="newest-heading">Newest links</h2>
${newest.length === 0 ? html`<p class="empty" data-state="no-links">No link yet.</p>` : consoleLinksTable(options, newest, 'The newest links of every workspace')}
</section>
${topWorkspacesCard(top)}
<section class="card" aria-labelledby="sections-heading">
<h2 id="sections-heading">Sections</h2>
<dl class="facts">${PARTS.map(([path, label, what]) => html`<dt><a href="${path}">${label}</a></dt><dd>${what}</dd>`)}</dl>
</section>`,
      });
    },
  };
}
