import type { Group } from '../../../core/entities.ts';
import { type Frame, here } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField } from '../../../web/notices.ts';
import { domainOptions } from './create-card.ts';
import type { Usage } from './dashboard.ts';
import type { DomainChoices } from './dashboard-page.ts';
import { usageFigures } from './dashboard-page.ts';
import { groupOptions } from './links-table.ts';

/**
 * GET /w/<slug>/bulk: many links from a pasted list or a CSV file (docs/api.md §16). The page's
 * script (assets/link-bulk.js) reads the rows, sends them 100 at a time, and shows each row's short
 * URL or the reason it was refused as its batch returns, with the progress of the whole.
 */

export interface BulkView {
  frame: Frame;
  usage: Usage;
  groups: Group[];
  domains: DomainChoices;
}

/** Rows one run takes: a file of more is split by whoever made it. */
export const MAX_BULK_ROWS = 5000;
/** A file read in the browser: larger is refused there, before anything is sent. */
export const MAX_BULK_FILE_BYTES = 5 * 1024 * 1024;

function domainSelect(choices: DomainChoices): SafeHtml {
  if (choices.hosts.length < 2) return html``;
  return html`<label>Domain <select name="domain">${domainOptions(choices.hosts, choices.chosen)}</select></label>`;
}

function bulkForm(view: BulkView): SafeHtml {
  return html`<section class="card" aria-labelledby="bulk-heading">
<h2 id="bulk-heading">Paste a list or choose a CSV file</h2>
<noscript><p class="notice error">Creating many links here needs JavaScript. Without it, <code>POST /api/v1/links/bulk</code> does the same.</p></noscript>
<form class="stack bulk-form" id="bulk-form" data-endpoint="${here(view.frame, '/bulk')}" data-max-rows="${MAX_BULK_ROWS}" data-max-bytes="${MAX_BULK_FILE_BYTES}" novalidate>
  ${csrfField(view.frame.csrfToken)}
  <label>Links <span class="hint">one URL a line; or CSV lines of <code>url,slug,group,title,tags</code></span>
    <textarea name="list" rows="8" spellcheck="false" autocapitalize="none" aria-describedby="bulk-format bulk-list-error" placeholder="https://example.com/first-page&#10;https://example.com/second-page,spring-sale"></textarea></label>
  <p class="field-error" id="bulk-list-error" data-bulk-error="list" hidden></p>
  <label>Or a CSV file <span class="hint">used instead of the list when chosen</span>
    <input type="file" name="file" accept=".csv,.txt,text/csv,text/plain" aria-describedby="bulk-format bulk-file-error"></label>
  <p class="field-error" id="bulk-file-error" data-bulk-error="file" hidden></p>
  <div class="bulk-choices">${domainSelect(view.domains)}<label>Group <span class="hint">for rows that name none</span> <select name="group">${groupOptions(view.groups, '', 'No group')}</select></label></div>
  <button type="submit">Create the links</button>
</form>
<p class="hint" id="bulk-format">A header line is optional; with one, columns go by name in any order (<code>url</code> or <code>long_url</code>, <code>slug</code>, <code>group</code>, <code>title</code>, <code>tags</code>), as the operator’s import reads them. A row names its group by name, API identifier or ID (an existing group; an ID or identifier wins over a name that reads the same). Quote a field that holds a comma; tags are split on <code>|</code>. At most ${MAX_BULK_ROWS.toLocaleString('en-US')} rows at a time.</p>
<p class="hint">Each row is checked as one link made on the dashboard: its target is fetched and must answer, it counts in this hour's requests and against the plan's links. Rows go 100 at a time; the page stays usable meanwhile.</p>
</section>`;
}

function resultsCard(): SafeHtml {
  return html`<section class="card" id="bulk-results" aria-labelledby="results-heading" hidden>
<h2 id="results-heading">Results</h2>
<div class="bulk-progress">
<progress id="bulk-progress" max="1" value="0" aria-labelledby="results-heading"></progress>
<p id="bulk-status" role="status" data-bulk-status></p>
<div class="bulk-actions"><button type="button" class="secondary small" id="bulk-stop">Stop</button>
<button type="button" class="secondary small" id="bulk-resume" hidden>Send the rest</button></div>
</div>
<div class="table-wrap"><table class="bulk-rows">
<thead><tr><th scope="col" class="col-row">Row</th><th scope="col" class="col-url">Long URL</th><th scope="col" class="col-result">Result</th></tr></thead>
<tbody id="bulk-rows"></tbody>
</table></div>
</section>`;
}

export function bulkPage(view: BulkView): string {
  const base = here(view.frame);
  return page({
    title: 'Create many links',
    frame: view.frame,
    styles: ['dashboard.css', 'link-tools.css'],
    scripts: ['dashboard.js', 'link-bulk.js'],
    body: html`<p><a href="${base}">← Dashboard</a></p>
<div class="page-head"><h1>Create many links</h1>${usageFigures(view.usage)}</div>
${bulkForm(view)}
${resultsCard()}`,
  });
}
