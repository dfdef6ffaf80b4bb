import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/**
 * What the site's chrome says depending on the store, read once per page request (docs/api.md §22):
 * whether /pricing lists a plan, so its links (the header, the footer, the landing page, Settings)
 * appear only while it does. A hook reads them before a page's handler and holds them for it; the
 * layout, rendering synchronously, asks `siteFacts()`. Outside a page (the not-found page, an error
 * page, a command) no fact is known, and the links stay out.
 */

export interface SiteFacts {
  /** A public plan exists: /pricing lists it. */
  pricing: boolean;
}

const NONE: SiteFacts = { pricing: false };

const current = new AsyncLocalStorage<SiteFacts>();

/** The facts of the page being rendered. */
export function siteFacts(): SiteFacts {
  return current.getStore() ?? NONE;
}

/**
 * Reads the facts for every page route registered after it (pageScope marks them hidden from the
 * OpenAPI document); API routes and the redirect never wait for them.
 */
export function readSiteFacts(app: FastifyInstance, read: () => Promise<SiteFacts>): void {
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.routeOptions.schema?.hide !== true) return done();
    read().then(
      (facts) => current.run(facts, done),
      (error: Error) => done(error),
    );
  });
}

/** Runs `render` as a page with these facts (tests of a page's markup). */
export function withSiteFacts<T>(facts: SiteFacts, render: () => T): T {
  return current.run(facts, render);
}
