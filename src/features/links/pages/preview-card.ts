import { pagePolicy } from '../../../http/security-headers.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import type { PreviewForm } from './campaign-form.ts';

/**
 * How a link shows when pasted in a chat (docs/api.md §16): its preview's image, title and
 * description under the short URL's host. Drawn here from what is saved or sent, and again by
 * assets/link-fields.js as the fields are typed in (the same markup, filled with textContent).
 */

export interface CardOptions {
  /** The host of the short URL, as chats show it. */
  host: string;
  /** Shown when the preview has no title: the link's own title, or its short URL. */
  fallbackTitle: string;
}

/** The card, hidden (with a line saying why) while the preview is empty. */
export function previewCard(preview: PreviewForm, options: CardOptions): SafeHtml {
  const empty = preview.title.trim() === '' && preview.description.trim() === '' && preview.image === '';
  const image = preview.image.startsWith('https://') ? preview.image : '';
  const hidden = (yes: boolean) => (yes ? html` hidden` : html``);
  return html`<figure class="chat-card-figure" data-preview-figure>
<div class="chat-card" data-preview-card data-host="${options.host}" data-fallback-title="${options.fallbackTitle}"${hidden(empty)}>
<div class="chat-card-image"${hidden(image === '')}>${image ? html`<img alt="" referrerpolicy="no-referrer" src="${image}">` : html``}</div>
<div class="chat-card-text">
<span class="chat-card-host" data-preview-host>${options.host}</span>
<strong class="chat-card-title" data-preview-title>${preview.title.trim() || options.fallbackTitle}</strong>
<span class="chat-card-description" data-preview-description>${preview.description.trim()}</span>
</div>
</div>
<p class="hint" data-preview-empty${hidden(!empty)}>No preview: chat apps follow the short URL and show what the target page says about itself.</p>
<p class="hint" data-preview-broken hidden>The image could not be loaded from that address; chats will show the card without it.</p>
<figcaption class="hint">How the short URL shows when it is pasted in a chat.</figcaption>
</figure>`;
}

/**
 * The page policy of a page that shows preview cards: their images come from any https address
 * the workspace's members typed in (no script, only the viewer's address is seen by that host).
 */
export const PREVIEW_CARD_POLICY = pagePolicy({ imagesFromAnyHttps: true });
