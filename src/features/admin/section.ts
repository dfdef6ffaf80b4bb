import type { FastifyInstance } from 'fastify';
import { field } from '../../web/form-fields.ts';
import type { PageError } from '../../web/notices.ts';
import { refusedOn } from '../../web/page-refusals.ts';
import { sendPage } from '../../web/send-page.ts';
import type { SessionDeps, SignedIn } from '../../web/session/session-cookie.ts';
import type { AuditActor } from '../abuse/index.ts';
import { actorOf } from './admin-deps.ts';
import { operatorForm, operatorPage, operatorsOnly } from './operator-access.ts';

/**
 * A section of the operator console: one page and the forms that change what it shows. Every form
 * is an operator's form (the flag, then the session's CSRF token); a change done answers 303 back
 * to the section with `?done=<what>` (and the search it was made from); a refusal shows the
 * section again with the refusal's status and its code as `data-error`.
 */
export interface Section {
  /** The page's address, /admin/<name>; each form posts to <path>/<action>. */
  path: string;
  /** Fields a form carries back so the page shows the same after it (the search, the filter). */
  keep: readonly string[];
  /** The page, from a query (GET) or a refused form's fields, with the refusal if any. */
  render(user: SignedIn, fields: unknown, error?: PageError): Promise<string>;
}

/** What a form did: the `done` code, and any facts the page shows about it (an import's counts). */
export type Done = string | { done: string; facts: Record<string, string> };

export type SectionAction = (body: unknown, actor: AuditActor) => Promise<Done>;

/** An action with a larger body than a form's usual 64 KiB (a pasted blocklist). */
export interface LargeAction {
  run: SectionAction;
  bodyLimit: number;
}

/** Where a change sends the browser: the section, with what it kept and what was done. */
export function doneAddress(section: Section, body: unknown, result: Done): string {
  const query = new URLSearchParams();
  for (const name of section.keep) {
    const value = field(body, name).trim();
    if (value !== '') query.set(name, value);
  }
  const { done, facts } = typeof result === 'string' ? { done: result, facts: {} } : result;
  query.set('done', done);
  for (const [name, value] of Object.entries(facts)) query.set(name, value);
  return `${section.path}?${query}`;
}

/** Registers a section's page and its forms. */
export function sectionRoutes(
  app: FastifyInstance,
  deps: SessionDeps,
  section: Section,
  actions: Readonly<Record<string, SectionAction | LargeAction>>,
): void {
  const onRequest = operatorsOnly(deps);
  app.get(
    section.path,
    { onRequest },
    operatorPage(deps, async (request, reply, user) =>
      sendPage(reply, 200, await section.render(user, request.query)),
    ),
  );
  for (const [name, action] of Object.entries(actions)) {
    const run = typeof action === 'function' ? action : action.run;
    const routeOptions =
      typeof action === 'function' ? { onRequest } : { onRequest, bodyLimit: action.bodyLimit };
    app.post(
      `${section.path}/${name}`,
      routeOptions,
      operatorForm(deps, async (request, reply, user) => {
        try {
          const result = await run(request.body, actorOf(user));
          return reply.redirect(doneAddress(section, request.body, result), 303);
        } catch (error) {
          const { status, error: shown } = refusedOn(reply, error);
          return sendPage(reply, status, await section.render(user, request.body, shown));
        }
      }),
    );
  }
}
