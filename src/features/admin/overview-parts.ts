import { DAY_MS } from '../../core/days.ts';
import type { ConsoleTotals, DayCount, WorkspaceClicks } from '../../core/ports/console-store.ts';
import { dailyBars } from '../../web/charts.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { ownerCell, workspaceCell } from './console-links.ts';

/** The parts of the console's overview (docs/api.md §22): its totals, its charts, its top workspaces. */

/** Days the charts and the top workspaces cover, today included. */
export const CHART_DAYS = 30;

const figure = (n: number) => n.toLocaleString('en-US');

function fact(label: string, name: string, value: number): SafeHtml {
  return html`<div><dt>${label}</dt><dd data-total="${name}" data-value="${value}">${figure(value)}</dd></div>`;
}

export function totalsCard(totals: ConsoleTotals): SafeHtml {
  return html`<section class="card" aria-labelledby="totals-heading">
<h2 id="totals-heading">Totals</h2>
<dl class="stats">
  ${fact('Users', 'users', totals.users)}
  ${fact('Workspaces', 'workspaces', totals.workspaces)}
  ${fact('Live links', 'links', totals.links)}
  ${fact('Clicks today', 'clicks-today', totals.clicksToday)}
  ${fact('Clicks, 7 days', 'clicks-7', totals.clicks7Days)}
  ${fact('Clicks, 30 days', 'clicks-30', totals.clicks30Days)}
</dl>
<p class="hint">Clicks of people (not bots), UTC days, today included.</p>
</section>`;
}

/** A day count per day of the last CHART_DAYS days up to `today`, a zero for each day without any. */
function series(counts: readonly DayCount[], today: number) {
  const byDay = new Map(counts.map(({ day, count }) => [day, count]));
  const days: string[] = [];
  const values: number[] = [];
  for (let day = today - CHART_DAYS + 1; day <= today; day++) {
    days.push(new Date(day * DAY_MS).toISOString().slice(0, 10));
    values.push(byDay.get(day) ?? 0);
  }
  return { days, values };
}

export function trendCards(
  signups: readonly DayCount[],
  links: readonly DayCount[],
  today: number,
): SafeHtml {
  return html`<div class="breakdowns">
<section class="card" aria-labelledby="signups-heading" data-chart="signups">
<h2 id="signups-heading">Sign-ups, 30 days</h2>
${dailyBars(series(signups, today), 'Sign-ups per day', 'sign-up')}
</section>
<section class="card" aria-labelledby="new-links-heading" data-chart="new-links">
<h2 id="new-links-heading">New links, 30 days</h2>
${dailyBars(series(links, today), 'New links per day', 'link')}
</section>
</div>`;
}

export function topWorkspacesCard(top: readonly WorkspaceClicks[]): SafeHtml {
  const body =
    top.length === 0
      ? html`<p class="empty" data-state="no-clicks">No clicks in the last 30 days.</p>`
      : html`<div class="table-wrap"><table class="stacked"><caption class="visually-hidden">Top workspaces by clicks in 30 days</caption>
<thead><tr><th scope="col">Workspace</th><th scope="col">Owner</th><th scope="col" class="num">Clicks</th></tr></thead>
<tbody>${top.map(
          ({ workspace, clicks }) => html`<tr data-top-workspace="${workspace.slug}">
<td data-label="Workspace">${workspaceCell(workspace)}</td>
<td data-label="Owner">${ownerCell(workspace)}</td>
<td data-label="Clicks" class="num" data-clicks="${clicks}">${figure(clicks)}</td></tr>`,
        )}</tbody></table></div>`;
  return html`<section class="card" aria-labelledby="top-heading">
<h2 id="top-heading">Top workspaces by clicks, 30 days</h2>
${body}
</section>`;
}
