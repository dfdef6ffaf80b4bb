import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Frame, FrameOf } from '../frame.ts';
import { messagePage } from '../message-page.ts';
import { sendPage } from '../send-page.ts';
import { hasSessionToken } from './csrf.ts';
import {
  CONFIRM_EMAIL_PATH,
  mustConfirmEmail,
  type SessionDeps,
  type SignedIn,
  signedIn,
} from './session-cookie.ts';

/** Route wrappers for signed-in pages and forms: no session → sign-in page; a form without its token → 403. */

type Handler = (request: FastifyRequest, reply: FastifyReply, user: SignedIn) => Promise<unknown>;

export function frameOf(user: SignedIn): Frame {
  return { email: user.user.email, csrfToken: user.session.csrfToken, operator: user.user.operator };
}

/** Who is signed in, for the navigation of every page. */
export function frameOfSession(session: SessionDeps): FrameOf {
  return async (request) => {
    const user = await signedIn(session, request);
    return user && frameOf(user);
  };
}

export function refuseForgedForm(reply: FastifyReply, frame?: Frame): FastifyReply {
  return sendPage(
    reply,
    403,
    messagePage({
      title: 'Form expired',
      error: {
        code: 'csrf',
        message: 'This form was not sent from this site, or it has expired. Reload the page and try again.',
      },
      frame,
    }),
  );
}

export function signedInPage(deps: SessionDeps, handler: Handler) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await signedIn(deps, request);
    if (!user) return reply.redirect('/login', 303);
    if (mustConfirmEmail(deps, user)) return reply.redirect(CONFIRM_EMAIL_PATH, 303);
    return handler(request, reply, user);
  };
}

export function signedInForm(deps: SessionDeps, handler: Handler) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await signedIn(deps, request);
    if (!user) return reply.redirect('/login', 303);
    if (mustConfirmEmail(deps, user)) return reply.redirect(CONFIRM_EMAIL_PATH, 303);
    if (!hasSessionToken(request, user.session.csrfToken)) return refuseForgedForm(reply, frameOf(user));
    return handler(request, reply, user);
  };
}

/** Someone signed in who is not an operator: the console does not exist for them. */
function refuseNonOperator(reply: FastifyReply, user: SignedIn): FastifyReply {
  const error = { code: 'not-found', message: 'There is no such page.' };
  return sendPage(reply, 404, messagePage({ title: 'Not found', error, frame: frameOf(user) }));
}

/** A page of the operator console (/admin, docs/api.md §13): signed in with the operator flag, else 404. */
export function operatorPage(deps: SessionDeps, handler: Handler) {
  return signedInPage(deps, async (request, reply, user) =>
    user.user.operator ? handler(request, reply, user) : refuseNonOperator(reply, user),
  );
}

/** A form of the operator console: the operator flag, then the session's CSRF token, before anything changes. */
export function operatorForm(deps: SessionDeps, handler: Handler) {
  return signedInPage(deps, async (request, reply, user) => {
    if (!user.user.operator) return refuseNonOperator(reply, user);
    if (!hasSessionToken(request, user.session.csrfToken)) return refuseForgedForm(reply, frameOf(user));
    return handler(request, reply, user);
  });
}
