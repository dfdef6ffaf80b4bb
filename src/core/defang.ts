/**
 * A URL written so nothing makes it a link again (docs/api.md §22): the console shows a reported
 * target as `hxxps://evil[.]example/login[.]php`, text an operator can read and copy into a tool
 * that fangs it back, never one click from the page it names. Every scheme anywhere in the text is
 * broken (a target may carry another URL in its query) and every dot is bracketed, so no host of it
 * is left whole for a browser, a mail client or a chat to turn into a link.
 */

/** At most this many characters are kept; a longer URL ends in `…`. */
const LONGEST = 300;

export function defang(url: string, longest = LONGEST): string {
  const cut = url.length > longest ? `${url.slice(0, longest)}…` : url;
  return cut
    .replace(/\b(h)tt(ps?)(?=:)/gi, (_, h: string, rest: string) => `${h}xx${rest}`)
    .replace(/\b(f)t(ps?)(?=:)/gi, (_, f: string, rest: string) => `${f}x${rest}`)
    .replace(/\./g, '[.]');
}
