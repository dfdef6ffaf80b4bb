import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorPage } from '../../web/error-page.ts';

/** Why a code was not redirected, as a person reads it (wording is no contract). */
export const NO_LINK = {
  404: ['Link not found', 'No short link has this address. Check it for typos.'],
  429: ['Too many unknown links', 'This address asked for too many unknown links. Try again in a minute.'],
  503: ['Try again in a moment', 'This link cannot be looked up right now. Try again in a few seconds.'],
} as const;

/** A client that asks for JSON and not for HTML gets the miss as JSON. */
export function wantsJson(accept: string | undefined): boolean {
  const value = accept ?? '';
  return value.includes('application/json') && !value.includes('text/html');
}

/**
 * The 404 of a code on a host Snip serves no links on, answered below the router: the same page (or
 * JSON) the route answers for an unknown code, made once, so such a host costs less than an unknown
 * code and nothing is looked up or counted for it.
 */
export function hostMiss(pageHeaders: readonly string[], common: readonly string[]) {
  const [title, detail] = NO_LINK[404];
  const html = Buffer.from(errorPage(404, title, detail));
  const json = Buffer.from(JSON.stringify({ error: '404', message: detail }));
  const htmlHead = [
    'content-type',
    'text/html; charset=utf-8',
    'cache-control',
    'no-store',
    'content-length',
    String(html.length),
    ...pageHeaders,
  ];
  const jsonHead = [
    'content-type',
    'application/json; charset=utf-8',
    'cache-control',
    'no-store',
    'content-length',
    String(json.length),
    ...common,
  ];
  return (req: IncomingMessage, res: ServerResponse): void => {
    const asJson = wantsJson(req.headers.accept);
    res.writeHead(404, asJson ? jsonHead : htmlHead);
    res.end(req.method === 'HEAD' ? undefined : asJson ? json : html);
  };
}
