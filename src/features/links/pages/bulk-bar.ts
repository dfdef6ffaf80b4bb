import type { Group } from '../../../core/entities.ts';
import { MAX_TAG_LENGTH } from '../../../core/link-fields.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { csrfField } from '../../../web/notices.ts';
import { groupOptions } from './group-options.ts';

/**
 * What the dashboard does to the links ticked in its list (dashboard.js): delete them, move them to
 * a group, add a tag. The bar shows once a link is ticked; each change goes to /w/<slug>/bulk/edit or
 * /bulk/delete, and the report under it says what became of each link.
 */
export function bulkBar(base: string, groups: readonly Group[], csrfToken: string): SafeHtml {
  return html`<div class="bulk-bar" id="bulk-bar" data-endpoint="${base}/bulk" hidden>
${csrfField(csrfToken)}
<p class="bulk-count"><strong data-bulk-count>0</strong> selected</p>
<form class="bulk-action" data-bulk="move"><label class="inline">Move to <select name="group">${groupOptions(groups, '', 'No group')}</select></label><button type="submit" class="secondary small">Move</button></form>
<form class="bulk-action" data-bulk="tag"><label class="inline">Tag <input type="text" name="tag" required maxlength="${MAX_TAG_LENGTH}" autocomplete="off" spellcheck="false" placeholder="e.g. spring"></label><button type="submit" class="secondary small">Add tag</button></form>
<div class="bulk-end"><button type="button" class="danger small" data-bulk="delete">Delete</button>
<button type="button" class="ghost small" data-bulk="clear">Clear selection</button></div>
</div>
<div class="bulk-report" id="bulk-report" tabindex="-1" hidden><p data-bulk-status role="status"></p><ul data-bulk-items></ul></div>`;
}
