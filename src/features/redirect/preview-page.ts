import { escapeHtml } from '../../web/html.ts';
import type { PreviewCard } from './link-extras.ts';

/**
 * The page a link previewer gets for a link with a preview (docs/api.md §16): the card's og:* and
 * twitter:* tags, and a refresh with a plain link to the target for a fetcher that follows on.
 * Every value is the link owner's or the visitor's text, so each is escaped for an attribute.
 */

/** Nothing runs, nothing loads, nothing frames it: the page is read for its tags only. */
export const PREVIEW_POLICY =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const meta = (attribute: 'name' | 'property', key: string, value: string) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;

export function previewPage(card: PreviewCard, shortUrl: string, target: string): string {
  const title = card.title || shortUrl;
  const tags = [
    meta('property', 'og:type', 'website'),
    meta('property', 'og:url', shortUrl),
    meta('property', 'og:title', title),
  ];
  if (card.description) tags.push(meta('property', 'og:description', card.description));
  if (card.image) tags.push(meta('property', 'og:image', card.image));
  tags.push(
    meta('name', 'twitter:card', card.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', title),
  );
  if (card.description) {
    tags.push(
      meta('name', 'twitter:description', card.description),
      meta('name', 'description', card.description),
    );
  }
  if (card.image) tags.push(meta('name', 'twitter:image', card.image));
  const link = escapeHtml(target);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
${tags.join('\n')}
<meta name="robots" content="noindex">
<meta http-equiv="refresh" content="0;url=${link}">
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${card.description ? `<p>${escapeHtml(card.description)}</p>\n` : ''}<p><a href="${link}">${link}</a></p>
</body>
</html>
`;
}
