import { headFacts } from './html-head.ts';

// Browsers look for <meta charset> in the first 1024 bytes; real pages often put it later, behind long
// comments or scripts, and a larger window costs nothing here.
const META_SCAN_BYTES = 4096;

/** The WHATWG encoding name for a charset label, or undefined when TextDecoder does not know it. */
function encodingForLabel(label: string): string | undefined {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

function charsetFromContentType(contentType: string | undefined): string | undefined {
  const match = contentType?.match(/;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]+))/i);
  const label = match?.[1] ?? match?.[2];
  return label === undefined ? undefined : encodingForLabel(label);
}

export function encodingFromBom(body: Uint8Array): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

function encodingFromMeta(body: Uint8Array): string | undefined {
  // Latin-1 maps every byte to one character, so the ASCII markup reads the same whatever the real encoding.
  const head = new TextDecoder('latin1').decode(body.subarray(0, META_SCAN_BYTES));
  for (const attributes of headFacts(head).metas) {
    const charset = attributes.get('charset');
    const label =
      charset ??
      (attributes.get('http-equiv')?.toLowerCase() === 'content-type'
        ? attributes.get('content')?.match(/charset\s*=\s*["']?([^\s"';]+)/i)?.[1]
        : undefined);
    const encoding = label === undefined ? undefined : encodingForLabel(label);
    if (encoding === undefined) continue;
    // A meta tag readable as ASCII proves the bytes are not UTF-16, whatever it claims (WHATWG prescan rule).
    return encoding.startsWith('utf-16') ? 'utf-8' : encoding;
  }
  return undefined;
}

/**
 * Decodes an HTML body. A BOM is unambiguous, so it wins over the header as in the WHATWG encoding
 * sniffing algorithm; then the header's charset, then a `<meta>` declaration, then UTF-8.
 * Unknown labels are skipped rather than trusted.
 */
export function decodeHtml(body: Uint8Array, contentType: string | undefined): string {
  const encoding =
    encodingFromBom(body) ?? charsetFromContentType(contentType) ?? encodingFromMeta(body) ?? 'utf-8';
  return new TextDecoder(encoding).decode(body);
}
