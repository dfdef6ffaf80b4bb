/**
 * Whether a response may carry a page title, read from its Content-Type alone. Apart from title.ts so
 * that the inspector decides what to read without loading the HTML parser, which only a body that may
 * hold a title needs (docs/adr/053).
 */

export const HTML_MEDIA_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export function mediaType(contentType: string | undefined): string {
  return (contentType?.split(';')[0] ?? '').trim().toLowerCase();
}

/** Whether a response with this Content-Type can carry a title, so its body is worth reading. */
export function mayHoldTitle(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type === '' || HTML_MEDIA_TYPES.has(type);
}
