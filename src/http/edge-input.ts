import type { FastifyInstance } from 'fastify';

/**
 * One check at the edge for every route (docs/adr/025): no string with a NUL character and no
 * number that is not a finite, safe value reaches a service or a store. PostgreSQL refuses NUL in
 * text and integers past bigint, JSON and query coercion turn `1e309` into Infinity: each was a 500.
 * The request is refused as unreadable, the way each surface refuses a malformed one (300, a 400 page).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route reads a path of its own and answers any of it (a short code, an asset name): an
     * unreadable one is simply unknown there, a 404, not a malformed request.
     */
    anyPath?: boolean;
  }
}

const NESTING = 8;

/** Where in `value` the first unreadable string or number is ("body.rules[0].url"), or undefined. */
export function unreadableAt(value: unknown, where: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? where : undefined;
  if (typeof value === 'number') {
    const wrong = !Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value));
    return wrong ? where : undefined;
  }
  if (typeof value !== 'object' || value === null || depth > NESTING) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unreadableAt(value[i], `${where}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, inner] of Object.entries(value)) {
    const found =
      unreadableAt(key, `${where}.${key}`, depth + 1) ?? unreadableAt(inner, `${where}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** A validation error as fastify makes them, so every scope's error handler answers it as one. */
function unreadable(part: 'params' | 'querystring' | 'body', where: string): Error {
  const message = `${where} holds a NUL character or a number out of range`;
  return Object.assign(new Error(message), {
    statusCode: 400,
    code: 'FST_ERR_VALIDATION',
    validation: [{ instancePath: where, message }],
    validationContext: part,
  });
}

/** Registered on the root instance before any route: after each route's own validation, before its handler. */
export function refuseUnreadableInput(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (request.is404 || request.routeOptions.config.anyPath) return;
    const parts = [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const;
    for (const [part, value] of parts) {
      const where = unreadableAt(value, part);
      if (where) throw unreadable(part, where);
    }
  });
}
