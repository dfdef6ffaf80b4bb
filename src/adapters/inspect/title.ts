import { decode } from 'html-entities';
import { decodeHtml, encodingFromBom } from './html-charset.ts';
import { headFacts } from './html-head.ts';
import { HTML_MEDIA_TYPES, mediaType } from './media-type.ts';

const MAX_TITLE_CODE_POINTS = 300;

function isHtml(body: Uint8Array, contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  if (type !== '') return HTML_MEDIA_TYPES.has(type);
  // No Content-Type: sniff markup, the way browsers would render it as a page.
  const start = new TextDecoder(encodingFromBom(body) ?? 'latin1').decode(body.subarray(0, 256));
  return start.trimStart().startsWith('<');
}

/** The `og:title` of the page's meta tags, if any. */
function openGraphTitle(metas: readonly Map<string, string>[]): string | undefined {
  for (const attributes of metas) {
    const key = (attributes.get('property') ?? attributes.get('name'))?.toLowerCase();
    if (key === 'og:title' && attributes.has('content')) return attributes.get('content');
  }
  return undefined;
}

function tidy(raw: string): string {
  const text = decode(raw, { level: 'html5' })
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
  const codePoints = Array.from(text);
  return codePoints.length <= MAX_TITLE_CODE_POINTS
    ? text
    : codePoints.slice(0, MAX_TITLE_CODE_POINTS).join('').trimEnd();
}

/**
 * The page title shown for a link: the document's `<title>`, else its `og:title`, entities decoded,
 * whitespace collapsed, at most 300 code points; "" when there is none or the body is not HTML.
 * Takes only a prefix of the body; a title cut off by the prefix counts as absent.
 */
export function extractTitle(body: Uint8Array, contentType: string | undefined): string {
  if (!isHtml(body, contentType)) return '';
  const { title, metas } = headFacts(decodeHtml(body, contentType));
  return tidy(title !== undefined && title.trim() !== '' ? title : (openGraphTitle(metas) ?? ''));
}
