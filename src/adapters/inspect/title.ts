import { decode } from 'html-entities';
import { metaTags } from './html-attributes.ts';
import { decodeHtml, encodingFromBom } from './html-charset.ts';

const MAX_TITLE_CODE_POINTS = 300;
const HTML_MEDIA_TYPES = new Set(['text/html', 'application/xhtml+xml']);

function mediaType(contentType: string | undefined): string {
  return (contentType?.split(';')[0] ?? '').trim().toLowerCase();
}

/** Whether a response with this Content-Type can carry a title, so its body is worth reading. */
export function mayHoldTitle(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type === '' || HTML_MEDIA_TYPES.has(type);
}

function isHtml(body: Uint8Array, contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  if (type !== '') return HTML_MEDIA_TYPES.has(type);
  // No Content-Type: sniff markup, the way browsers would render it as a page.
  const start = new TextDecoder(encodingFromBom(body) ?? 'latin1').decode(body.subarray(0, 256));
  return start.trimStart().startsWith('<');
}

// Comments and raw-text elements can hold a literal "<title>"; <svg> has a <title> of its own.
const TOKEN = String.raw`<!--[\s\S]*?(?:-->|$)|<(\/?)(svg|title|script|style)\b((?:[^>"']|"[^"]*"|'[^']*')*)>`;

/** Where the end tag of a raw-text element opened before `from` starts, or -1. */
function endTagIndex(html: string, tag: string, from: number): number {
  const endTag = new RegExp(`</${tag}(?=[\\s/>]|$)`, 'gi');
  endTag.lastIndex = from;
  return endTag.exec(html)?.index ?? -1;
}

function documentTitle(html: string): string | undefined {
  const token = new RegExp(TOKEN, 'gi');
  let svgDepth = 0;
  for (let match = token.exec(html); match !== null; match = token.exec(html)) {
    const [, closing, name, inside = ''] = match;
    const tag = name?.toLowerCase();
    if (tag === undefined) continue;
    if (tag === 'svg') {
      if (closing === '/') svgDepth = Math.max(0, svgDepth - 1);
      else if (!inside.trimEnd().endsWith('/')) svgDepth++;
      continue;
    }
    if (closing === '/') continue;
    const end = endTagIndex(html, tag, token.lastIndex);
    if (end === -1) return undefined;
    if (tag === 'title' && svgDepth === 0) return html.slice(token.lastIndex, end);
    token.lastIndex = end;
  }
  return undefined;
}

function openGraphTitle(html: string): string | undefined {
  for (const attributes of metaTags(html)) {
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
  const html = decodeHtml(body, contentType);
  const title = documentTitle(html);
  return tidy(title !== undefined && title.trim() !== '' ? title : (openGraphTitle(html) ?? ''));
}
