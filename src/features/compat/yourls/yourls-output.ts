import type { FastifyReply } from 'fastify';
import { type YourlsMembers, yourlsJson, yourlsXml } from './yourls-encode.ts';
import type { YourlsParams } from './yourls-params.ts';

/**
 * How YOURLS writes an answer (yourls_api_output): `format` xml (the default), json, jsonp or
 * simple, any other word reading as simple; the HTTP status is the answer's statusCode, else its
 * errorCode, else 200.
 */

/** What an action answers: its members in YOURLS's order, and the text `format=simple` shows. */
export interface YourlsAnswer {
  members: YourlsMembers;
  simple?: string;
}

const JSONP_NAME = /^[a-zA-Z0-9_$.]+$/;
// Written escapes of U+2028-like characters smuggle line ends into a script: YOURLS refuses them too.
const UNICODE_ESCAPE = /\\?u[0-9a-fA-F]{4}/;

/** A JSONP callback YOURLS accepts: a dotted path of identifier characters, nothing that runs. */
export function validCallback(callback: string): boolean {
  return JSONP_NAME.test(callback) && !UNICODE_ESCAPE.test(callback);
}

export function statusOf(members: YourlsMembers): number {
  for (const name of ['statusCode', 'errorCode']) {
    const value = members[name];
    if (value === undefined) continue;
    const status = Number(value);
    return Number.isInteger(status) && status >= 200 && status <= 599 ? status : 200;
  }
  return 200;
}

/** `callback`, else `jsonp`, as YOURLS reads them. */
function callbackOf(params: YourlsParams): string | undefined {
  return params.get('callback') ?? params.get('jsonp');
}

function typed(reply: FastifyReply, type: string, status: number, body: string): FastifyReply {
  return reply.code(status).type(`${type}; charset=utf-8`).send(body);
}

export function sendYourls(reply: FastifyReply, params: YourlsParams, answer: YourlsAnswer): FastifyReply {
  const callback = callbackOf(params);
  // YOURLS echoes the callback back as a member; only one it would call is echoed here.
  const members =
    callback !== undefined && validCallback(callback) ? { ...answer.members, callback } : answer.members;
  const status = statusOf(members);
  switch (params.get('format') ?? 'xml') {
    case 'jsonp':
      if (callback !== undefined && !validCallback(callback)) {
        const refused = { errorCode: '400', error: 'Invalid callback parameter' };
        return typed(reply, 'application/javascript', 400, yourlsJson(refused));
      }
      return typed(reply, 'application/javascript', status, `${callback ?? ''}(${yourlsJson(members)})`);
    case 'json':
      return typed(reply, 'application/json', status, yourlsJson(members));
    case 'xml':
      return typed(reply, 'application/xml', status, yourlsXml(members));
    default:
      return typed(reply, 'text/plain', status, answer.simple ?? '');
  }
}
