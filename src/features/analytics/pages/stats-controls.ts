import type { StatsAnswer } from '../../../core/analytics/stats.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import type { StatsReport } from '../visit-stats.ts';
import type { StatsAddress } from './stats-address.ts';
import { FILTER_NAMES, filterText } from './stats-labels.ts';

/**
 * What the stats page says about the figures it shows: the filters in force as chips that take
 * one off, the zone the days are in, from when filtered figures count, and the comparison with the
 * previous period — the switch, and each total's change.
 */

const figure = (n: number) => n.toLocaleString('en-US');

/** A day as people read it, in the zone the figures are in: "29 Mar 2026". */
export function dateIn(ms: number, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: zone,
  }).format(ms);
}

/** A range's days, its end excluded: "1 Mar 2026 – 30 Mar 2026", or the one day. */
export function daysText(from: string, to: string, zone: string): string {
  const [first, last] = [dateIn(Date.parse(from), zone), dateIn(Date.parse(to) - 1, zone)];
  return first === last ? first : `${first} – ${last}`;
}

/** The filters in force, each a chip that takes it off, then "Clear all"; nothing when there are none. */
export function filterChips(address: StatsAddress): SafeHtml | '' {
  if (address.filters.length === 0) return '';
  const chips = address.filters.map(
    ([name, value]) =>
      html`<li><a class="chip" href="${address.href({ [name]: undefined })}" data-drop="${name}"><span class="visually-hidden">Remove the filter </span>${FILTER_NAMES[name]}: ${filterText(name, value)} <span aria-hidden="true">×</span></a></li>`,
  );
  const none = Object.fromEntries(address.filters.map(([name]) => [name, undefined]));
  return html`<div class="stats-filters"><span class="filters-label">Showing only</span><ul class="chips" aria-label="Filters in force">${chips}</ul>
<a class="clear-all" href="${address.href(none)}" data-clear>Clear all</a></div>`;
}

/** Which zone the days and hours are in, and whose it is. */
function zoneNote(report: StatsReport, address: StatsAddress): SafeHtml {
  const zone = report.answer.timezone;
  const asked = report.refused ? undefined : report.query.more.tz;
  let text: SafeHtml;
  if (zone !== (asked ?? report.workspaceZone)) {
    text = html`Days are UTC days: clicks older than ${report.retentionDays} days are counted by UTC day only.`;
  } else if (asked !== undefined && asked !== report.workspaceZone) {
    text = html`Days and hours are in ${zone} time, as this address asks. <a href="${address.href({ tz: undefined })}">Use the workspace’s zone (${report.workspaceZone})</a>`;
  } else {
    text = html`Days and hours are in ${zone} time, the workspace’s zone.`;
  }
  return html`<p class="hint zone-note" data-zone="${zone}">${text}</p>`;
}

/** From when filtered figures count (the details they are filtered by are kept so many days). */
function retainedNote(answer: StatsAnswer, retentionDays: number): SafeHtml | '' {
  const notes: SafeHtml[] = [];
  const zone = answer.timezone;
  if (answer.retained_from) {
    notes.push(
      html`These figures start on ${dateIn(Date.parse(answer.retained_from), zone)}: the details they are filtered by are kept for ${retentionDays} days.`,
    );
  }
  const before = answer.previous;
  if (before?.retained_from) {
    const from = Date.parse(before.retained_from);
    notes.push(
      from >= Date.parse(before.to)
        ? html` The previous period is older than that, so it counts nothing.`
        : html` The previous period’s figures start on ${dateIn(from, zone)}.`,
    );
  }
  return notes.length === 0
    ? ''
    : html`<p class="notice retained" data-retained-from="${answer.retained_from ?? before?.retained_from ?? ''}">${notes}</p>`;
}

/** The switch for the comparison: on, it names the period compared with and turns it off. */
function compareSwitch(answer: StatsAnswer, address: StatsAddress): SafeHtml {
  const before = answer.previous;
  if (!before) {
    return html`<p class="compare" data-compare="off"><a href="${address.href({ compare: 'previous' })}">Compare with the previous period</a></p>`;
  }
  return html`<p class="compare" data-compare="on">Compared with the previous period, ${daysText(before.from, before.to, answer.timezone)}. <a href="${address.href({ compare: undefined })}">Stop comparing</a></p>`;
}

/** Chips, zone, retention and comparison, between the page's head and its figures. */
export function statsContext(report: StatsReport, address: StatsAddress): SafeHtml {
  return html`<div class="stats-context">${filterChips(address)}
<div class="stats-notes">${zoneNote(report, address)}${compareSwitch(report.answer, address)}</div>
${retainedNote(report.answer, report.retentionDays)}</div>`;
}

/** A total's change against the previous period: an arrow and words, never colour alone. */
export function change(now: number, before: number): SafeHtml {
  let shown: SafeHtml;
  if (now === before) shown = html`<span aria-hidden="true">=</span> no change`;
  else if (before === 0) shown = html`new <span class="was">(none before)</span>`;
  else {
    const percent = (Math.abs(now - before) / before) * 100;
    const rounded = percent < 1 ? '<1' : String(Math.round(percent));
    const [arrow, word] = now > before ? ['↑', 'up'] : ['↓', 'down'];
    shown = html`<span aria-hidden="true">${arrow}</span><span class="visually-hidden">${word}</span> ${rounded}% <span class="was">from ${figure(before)}</span>`;
  }
  return html`<dd class="change" data-change="${now === before ? 'same' : before === 0 ? 'new' : now > before ? 'up' : 'down'}">${shown}</dd>`;
}
