import type { Group } from '../../../core/entities.ts';
import { html, type SafeHtml } from '../../../web/html.ts';

/** A select's options: none (its label given), then every group, the selected one (its ID) marked. */
export function groupOptions(groups: readonly Group[], selected: string, none: string): SafeHtml {
  return html`<option value="">${none}</option>${groups.map(
    (group) =>
      html`<option value="${group.id}"${selected === String(group.id) ? html` selected` : html``}>${group.name}</option>`,
  )}`;
}
