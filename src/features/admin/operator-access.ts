import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { hasSessionToken } from '../../web/session/csrf.ts';
import { frameOf, refuseForgedForm } from '../../web/session/handlers.ts';
import {
  CONFIRM_EMAIL_PATH,
  mustConfirmEmail,
  type SessionDeps,
  type SignedIn,
  signedIn,
} from '../../web/session/session-cookie.ts';

/**
 * Who reaches the operator console (docs/api.md §13). For anyone but an operator — signed out or
 * signed in — the console does not exist: each of its routes answers what an unknown address
 * answers (the application's not-found handler), decided on the request line before any body is
 * read, so neither a redirect to sign-in nor a body-size or form error gives it away.
 */

type Handler = (request: FastifyRequest, reply: FastifyReply, user: SignedIn) => Promise<unknown>;

/** The operator each admitted request was made by, from the gate to the handler. */
const admitted = new WeakMap<FastifyRequest, SignedIn>();

/** The gate of every console route: an operator goes on, anyone else gets the not-found answer. */
export function operatorsOnly(deps: SessionDeps): onRequestHookHandler {
  return (request, reply, done) => {
    signedIn(deps, request).then((user) => {
      if (!user?.user.operator) {
        // Not calling done ends this route's chain: the not-found handler answers instead.
        reply.callNotFound();
        return;
      }
      admitted.set(request, user);
      done();
    }, done);
  };
}

function operatorOf(request: FastifyRequest): SignedIn {
  const user = admitted.get(request);
  if (!user) throw new Error('an operator route was registered without operatorsOnly');
  return user;
}

/** A page of the console, behind operatorsOnly. */
export function operatorPage(deps: SessionDeps, handler: Handler) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const user = operatorOf(request);
    if (mustConfirmEmail(deps, user)) return reply.redirect(CONFIRM_EMAIL_PATH, 303);
    return handler(request, reply, user);
  };
}

/** A form of the console, behind operatorsOnly: the session's CSRF token before anything changes. */
export function operatorForm(deps: SessionDeps, handler: Handler) {
  return operatorPage(deps, async (request, reply, user) => {
    if (!hasSessionToken(request, user.session.csrfToken)) return refuseForgedForm(reply, frameOf(user));
    return handler(request, reply, user);
  });
}
