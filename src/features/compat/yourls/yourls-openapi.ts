import { RETRY_AFTER_HEADER } from '../../../http/openapi-parts.ts';
import { MAX_STATS_LIMIT } from './yourls-stats.ts';

/**
 * /yourls-api.php in /openapi.json. The parameters are documentation only: their schemas accept
 * anything, so a repeated or odd parameter reaches the handler, which reads it as YOURLS does
 * instead of fastify refusing it in its own form.
 */

const param = (description: string) => ({ description });

const PARAMETERS = {
  type: 'object',
  properties: {
    action: param('shorturl, expand, url-stats, stats, db-stats or version.'),
    format: param('xml (the default), json, jsonp or simple; any other word answers as simple.'),
    signature: param('A Snip API key. With `timestamp` (a time-limited signature) it is refused: 403.'),
    username: param("A Snip account's email, with `password`: its personal workspace's main key acts."),
    password: param('The password of `username`.'),
    url: param('shorturl: the long URL.'),
    keyword: param('shorturl: the custom short code (a Snip slug: 3-64 of A-Z, a-z, 0-9, "_", "-").'),
    title: param("shorturl: the title; the target page's when empty."),
    shorturl: param('expand, url-stats: a keyword or a full short URL.'),
    filter: param('stats: top (default), bottom, last or rand.'),
    limit: param(`stats: how many links to list, at most ${MAX_STATS_LIMIT}; none without it, as in YOURLS.`),
    start: param('stats: how many links of the order to skip.'),
    db: param('version: 1 adds db_version.'),
    callback: param('jsonp: the function to call, of A-Z, a-z, 0-9, "_", "$" and "." only (else 400).'),
  },
} as const;

const MEMBERS = {
  type: 'object',
  description:
    "The members of the YOURLS answer of the action; refusals add `snipCode`, Snip's own code. See docs/migrating/yourls.md.",
  additionalProperties: true,
} as const;

function answer(description: string, headers: Record<string, object> = {}) {
  return {
    description,
    content: {
      'application/xml': { schema: { type: 'string', description: 'The members under <root>.' } },
      'application/json': { schema: MEMBERS },
      'application/javascript': { schema: { type: 'string', description: 'callback(JSON).' } },
      'text/plain': { schema: { type: 'string', description: 'format=simple.' } },
    },
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

export function yourlsSchema(method: 'get' | 'post') {
  const body =
    method === 'post'
      ? {
          body: {
            content: {
              'application/x-www-form-urlencoded': { schema: PARAMETERS },
              'multipart/form-data': { schema: PARAMETERS },
            },
          },
        }
      : {};
  return {
    tags: ['YOURLS compatibility'],
    operationId: method === 'get' ? 'yourlsApiGet' : 'yourlsApiPost',
    summary: 'YOURLS API',
    description:
      'The YOURLS API on Snip: the parameters in the query string, a form body, or both (the body ' +
      'wins); a POST may send them all in the query and no body. Answers as YOURLS does: the HTTP ' +
      "status is the answer's statusCode or errorCode. See docs/migrating/yourls.md.",
    security: [{ YourlsSignature: [] }, {}] as Record<string, string[]>[],
    querystring: PARAMETERS,
    ...body,
    response: {
      200: answer('Done (shorturl: created).'),
      400: answer(
        'Unknown action, a URL or keyword refused (error:nourl, error:url, error:keyword, …), a bad JSONP callback.',
      ),
      403: answer(
        'Not logged in ("Please log in", "Invalid username or password"), a scope missing, or the link quota reached.',
      ),
      404: answer('expand, url-stats: no such short URL in the workspace.'),
      429: answer(
        'Too many requests: the hourly window, or failed keys or passwords from this address.',
        RETRY_AFTER_HEADER,
      ),
      503: answer('The store did not answer in time.', RETRY_AFTER_HEADER),
    },
  };
}
