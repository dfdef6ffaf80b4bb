import { Refusal } from '../../core/errors.ts';
import type { Blocklist } from '../../core/moderation.ts';
import { field } from '../../web/form-fields.ts';
import type { Frame } from '../../web/frame.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { frameOf } from '../../web/session/handlers.ts';
import type { AdminPageOptions } from './admin-deps.ts';
import { consolePage, doneOf, rowForm, timeOf } from './admin-nav.ts';
import type { LargeAction, Section, SectionAction } from './section.ts';

/**
 * /admin/blocklists (docs/api.md §13): the lists and their rules; a host added (with its
 * subdomains, or that host only) or removed from every list; a list imported from pasted text
 * (hosts-file, plain or AdBlock lines), with what was applied and skipped; a list deleted.
 */

const PATH = '/admin/blocklists';

/** A pasted list may be large: a million rules is a few tens of MiB, a pasted one far less. */
export const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;
/** The skipped lines an import names (the rest are counted). */
const SKIPPED_SHOWN = 20;

const DONE: Record<string, string> = {
  added: 'The host is blocked: links to it answer 410, new ones are refused (316).',
  'already-blocked': 'The manual list holds that rule already.',
  removed: 'The host’s rules were removed from every list.',
  'not-listed': 'No list holds a rule of exactly that host.',
  imported: 'The list was imported.',
  deleted: 'The list was deleted.',
};

/** The counts of an import, carried in the address it sends the browser to. */
function importNotice(fields: unknown): SafeHtml {
  if (field(fields, 'done') !== 'imported') return html``;
  const lines = field(fields, 'lines')
    .split(',')
    .filter((line) => /^\d+$/.test(line));
  const skipped = field(fields, 'skipped');
  const more =
    lines.length > 0
      ? html` (line${lines.length === 1 ? '' : 's'} ${lines.join(', ')}${Number(skipped) > lines.length ? ', …' : ''})`
      : html``;
  return html`<p class="notice ok" role="status" data-import="${field(fields, 'list')}" data-applied="${field(fields, 'applied')}" data-skipped="${skipped}">
List <strong>${field(fields, 'list')}</strong>: ${field(fields, 'applied')} lines applied, ${field(fields, 'rules')} rules in the list, ${skipped} lines skipped${more}.</p>`;
}

function listsTable(frame: Frame, lists: readonly Blocklist[]): SafeHtml {
  if (lists.length === 0) return html`<p class="empty" data-state="no-lists">No blocklists yet.</p>`;
  const rows = lists.map(
    (list) => html`<tr data-list="${list.name}" data-rules="${list.ruleCount}">
<td data-label="List"><code>${list.name}</code></td>
<td data-label="Source"><span class="truncate" title="${list.source ?? ''}">${list.source ?? 'a file, or by hand'}</span></td>
<td data-label="Rules" class="num">${list.ruleCount.toLocaleString('en-US')}</td>
<td data-label="Skipped" class="num">${list.skipped.toLocaleString('en-US')}</td>
<td data-label="Updated">${timeOf(list.updatedAt)}</td>
<td class="actions">${rowForm(
      frame,
      `${PATH}/delete`,
      { name: list.name },
      html`<button type="submit" class="danger small" data-action="delete">Delete<span class="visually-hidden"> the list ${list.name}</span></button>`,
    )}</td></tr>`,
  );
  return html`<div class="table-wrap"><table class="stacked"><caption class="visually-hidden">Blocklists</caption>
<thead><tr><th scope="col">List</th><th scope="col">Source</th><th scope="col" class="num">Rules</th><th scope="col" class="num">Skipped</th><th scope="col">Updated</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function hostForms(frame: Frame, fields: unknown): SafeHtml {
  const host = field(fields, 'host');
  return html`<section class="card" id="add-host" aria-labelledby="add-heading">
<h2 id="add-heading">Block a host</h2>
${rowForm(
  frame,
  `${PATH}/add`,
  {},
  html`<label class="grow">Host <input type="text" name="host" required maxlength="253" placeholder="evil.example" autocomplete="off" spellcheck="false" value="${host}"></label>
<label class="check"><input type="checkbox" name="exact" value="on"> That host only, not its subdomains</label>
<button type="submit">Block</button>`,
  'row',
)}
</section>
<section class="card" id="remove-host" aria-labelledby="remove-heading">
<h2 id="remove-heading">Unblock a host</h2>
${rowForm(
  frame,
  `${PATH}/remove`,
  {},
  html`<label class="grow">Host <input type="text" name="host" required maxlength="253" placeholder="evil.example" autocomplete="off" spellcheck="false"></label>
<button type="submit" class="secondary">Remove from every list</button>`,
  'row',
)}
<p class="hint">A list refreshed from an address brings its rules back at its next refresh.</p>
</section>`;
}

function importForm(frame: Frame, fields: unknown): SafeHtml {
  return html`<section class="card" id="import" aria-labelledby="import-heading">
<h2 id="import-heading">Import a list</h2>
${rowForm(
  frame,
  `${PATH}/import`,
  {},
  html`<label>Name <span class="hint">a-z, 0-9, “.”, “-” and “_”; a list of that name is replaced</span>
  <input type="text" name="name" required maxlength="60" placeholder="phishing-army" autocomplete="off" spellcheck="false" value="${field(fields, 'name')}"></label>
<label>Rules <span class="hint">hosts-file, plain or AdBlock (||host^) lines; comments are ignored</span>
  <textarea name="text" rows="8" required spellcheck="false">${field(fields, 'text')}</textarea></label>
<button type="submit">Import</button>`,
  'stack',
)}
</section>`;
}

/** The blocklists section of the console. */
export function blocklistsSection(options: AdminPageOptions): Section {
  const { blocklists } = options.abuse;
  return {
    path: PATH,
    keep: [],
    async render(user, fields, error) {
      const lists = await blocklists.list();
      const frame = frameOf(user);
      const done = doneOf(field(fields, 'done'));
      return consolePage({
        title: 'Blocklists',
        path: PATH,
        frame,
        done: { code: done === 'imported' ? undefined : done, messages: DONE },
        error,
        body: html`${importNotice(fields)}
<section class="card" aria-labelledby="lists-heading">
<h2 id="lists-heading">Lists <span class="hint" data-rules-in-force="${blocklists.ruleCount()}">${blocklists.ruleCount().toLocaleString('en-US')} rules in force</span></h2>
${listsTable(frame, lists)}
</section>
${hostForms(frame, fields)}
${importForm(frame, fields)}`,
      });
    },
  };
}

/** The blocklists section's forms. */
export function blocklistActions(options: AdminPageOptions): Record<string, SectionAction | LargeAction> {
  const { blocklists } = options.abuse;
  const importList: SectionAction = async (body, actor) => {
    const { list, parsed } = await blocklists.importText(
      actor,
      field(body, 'name'),
      field(body, 'text'),
      null,
    );
    const lines = parsed.skippedLines.slice(0, SKIPPED_SHOWN).map((skipped) => skipped.line);
    return {
      done: 'imported',
      facts: {
        list: list.name,
        applied: String(parsed.applied),
        rules: String(list.ruleCount),
        skipped: String(parsed.skipped),
        lines: lines.join(','),
      },
    };
  };
  return {
    async add(body, actor) {
      const { added } = await blocklists.add(actor, field(body, 'host'), field(body, 'exact') === 'on');
      return added ? 'added' : 'already-blocked';
    },
    async remove(body, actor) {
      const { removed } = await blocklists.remove(actor, field(body, 'host'));
      return removed > 0 ? 'removed' : 'not-listed';
    },
    import: { run: importList, bodyLimit: IMPORT_BODY_LIMIT },
    async delete(body, actor) {
      const name = field(body, 'name');
      if (name === '') throw new Refusal('blocklist-name-invalid');
      await blocklists.deleteList(actor, name);
      return 'deleted';
    },
  };
}
