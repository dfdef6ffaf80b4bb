/**
 * Query forwarding (docs/api.md §16): a link that forwards its query sends the visitor on with the
 * short URL's own query appended to the target, parameters as sent (order, repeats and encoding
 * kept), less the QR code's `qr=1` (docs/api.md §9.1), which is Snip's own marker.
 */

/** The source marker a QR image adds to the short URL: a parameter exactly this is never forwarded. */
const QR_MARKER = 'qr=1';

// A Location value takes printable ASCII, and a raw '#' would start a fragment: anything else a
// client sent is written percent-encoded (a request line's bytes arrive one per character).
const UNSAFE = /[^\x21-\x22\x24-\x7e]/;
const UNSAFE_ALL = /[^\x21-\x22\x24-\x7e]/g;

const encoded = (ch: string): string => {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(ch);
};

/** The query a request's URL forwards ('' when none): its own, every `qr=1` taken out. */
export function forwardedQuery(url: string | undefined): string {
  const at = url === undefined ? -1 : url.indexOf('?');
  if (at < 0) return '';
  let query = (url as string).slice(at + 1);
  if (UNSAFE.test(query)) query = query.replace(UNSAFE_ALL, encoded);
  if (query.includes(QR_MARKER)) {
    query = query
      .split('&')
      .filter((parameter) => parameter !== QR_MARKER)
      .join('&');
  }
  return query;
}

/**
 * The target with a query appended: after the target's own query (joined with `&`), before its
 * fragment (`https://t.example/p?a=1#frag` + `b=2` → `https://t.example/p?a=1&b=2#frag`).
 */
export function withQuery(location: string, query: string): string {
  if (query === '') return location;
  const hash = location.indexOf('#');
  const head = hash < 0 ? location : location.slice(0, hash);
  const fragment = hash < 0 ? '' : location.slice(hash);
  const queryAt = head.indexOf('?');
  const joiner = queryAt < 0 ? '?' : head.endsWith('?') || head.endsWith('&') ? '' : '&';
  return `${head}${joiner}${query}${fragment}`;
}

/** The target a forwarding link sends a request for `url` to. */
export function forwardTo(location: string, url: string | undefined): string {
  return withQuery(location, forwardedQuery(url));
}
