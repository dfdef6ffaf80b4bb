import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { field } from '../../../web/form-fields.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import { type FormTokens, hasSessionToken } from '../../../web/session/csrf.ts';
import { refuseForgedForm } from '../../../web/session/handlers.ts';
import {
  clearSessionCookie,
  SESSION_COOKIE,
  type SessionDeps,
  setSessionCookie,
  signedIn,
} from '../../../web/session/session-cookie.ts';
import { setFreshKey } from '../fresh-key.ts';
import { PASSWORD_MIN, type SignInService } from '../sign-in.ts';
import { type AuthForm, signInPage, signUpPage } from './auth-pages.ts';

/** GET/POST /signup, GET/POST /login, POST /logout (docs/api.md §4). */

export interface AuthRouteOptions extends SessionDeps {
  auth: SignInService;
  forms: FormTokens;
  signupOpen: boolean;
}

export async function authRoutes(app: FastifyInstance, options: AuthRouteOptions): Promise<void> {
  const { auth } = options;
  const { formToken, hasFormToken } = options.forms;
  const signUp = (form: AuthForm) =>
    signUpPage(form, { open: options.signupOpen, minPassword: PASSWORD_MIN });
  const signIn = (form: AuthForm) => signInPage(form, options.signupOpen);

  /** A fresh session for the account; any session the browser had before is ended (no fixation). */
  async function startSession(request: FastifyRequest, reply: FastifyReply, accountId: number) {
    await options.sessions.end(request.cookies[SESSION_COOKIE]);
    const session = await options.sessions.start(accountId);
    setSessionCookie(options, reply, session);
    return session;
  }

  app.get('/login', async (request, reply) => {
    if (await signedIn(options, request)) return reply.redirect('/dashboard', 303);
    return sendPage(reply, 200, signIn({ csrfToken: formToken(request, reply, options.policy) }));
  });

  app.post('/login', async (request, reply) => {
    if (!hasFormToken(request)) return refuseForgedForm(reply);
    const email = field(request.body, 'email');
    const csrfToken = formToken(request, reply, options.policy);
    try {
      const account = await auth.signIn(email, field(request.body, 'password'), request.ip);
      await startSession(request, reply, account.id);
      return reply.redirect('/dashboard', 303);
    } catch (error) {
      const { status, error: shown } = refusedOn(reply, error);
      return sendPage(reply, status, signIn({ csrfToken, email, error: shown }));
    }
  });

  app.get('/signup', async (request, reply) => {
    if (options.signupOpen && (await signedIn(options, request))) return reply.redirect('/dashboard', 303);
    return sendPage(reply, 200, signUp({ csrfToken: formToken(request, reply, options.policy) }));
  });

  app.post('/signup', async (request, reply) => {
    // A closed sign-up is refused before the form's token is even looked at.
    if (options.signupOpen && !hasFormToken(request)) return refuseForgedForm(reply);
    const email = field(request.body, 'email');
    try {
      const created = await auth.signUp(email, field(request.body, 'password'), request.ip);
      const session = await startSession(request, reply, created.account.id);
      if (!created.account.plan.apiAccess) return reply.redirect('/dashboard', 303);
      setFreshKey(reply, options.policy, session.id, created.apiKey, options.now());
      return reply.redirect('/account', 303);
    } catch (error) {
      const { status, error: shown } = refusedOn(reply, error);
      if (shown.code === 'plan-missing') request.log.error('SIGNUP_PLAN names no plan');
      const csrfToken = options.signupOpen ? formToken(request, reply, options.policy) : '';
      return sendPage(reply, status, signUp({ csrfToken, email, error: shown }));
    }
  });

  app.post('/logout', async (request, reply) => {
    const user = await signedIn(options, request);
    if (user && !hasSessionToken(request, user.session.csrfToken)) return refuseForgedForm(reply);
    await options.sessions.end(request.cookies[SESSION_COOKIE]);
    clearSessionCookie(options, reply);
    return reply.redirect('/login', 303);
  });
}
