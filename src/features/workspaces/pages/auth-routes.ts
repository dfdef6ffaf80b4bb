import type { FastifyInstance, FastifyRequest } from 'fastify';
import { field } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import { type FormTokens, hasSessionToken } from '../../../web/session/csrf.ts';
import { refuseForgedForm } from '../../../web/session/handlers.ts';
import {
  clearSessionCookie,
  SESSION_COOKIE,
  type SessionDeps,
  signedIn,
  startSession,
} from '../../../web/session/session-cookie.ts';
import { setFreshKey } from '../fresh-key.ts';
import { mailLinks, type SignUpVerificationOptions } from '../mail-links.ts';
import type { PendingSignIns } from '../sealed.ts';
import { PASSWORD_MIN, type SignInService } from '../sign-in.ts';
import { invitationTokenOf, type SignupMode } from '../signup-rules.ts';
import { type AuthForm, safeNext, signInPage, signUpMailedPage, signUpPage } from './auth-pages.ts';
import { askForCode } from './two-factor-routes.ts';

/** GET/POST /signup, GET/POST /login, POST /logout (docs/api.md §4). */

export interface AuthRouteOptions extends SessionDeps, SignUpVerificationOptions {
  auth: SignInService;
  forms: FormTokens;
  signupMode: SignupMode;
  /** OIDC_NAME when OpenID sign-in is configured. */
  oidcName?: string;
  /** Mail is configured, so a password can be reset by mail. */
  resetByMail: boolean;
  /** The step a sign-in waits at for a code when two-factor sign-in is on. */
  pendingSignIns: PendingSignIns;
}

/** The sign-in and sign-up pages of these options, and where a form asks to go next. */
function authPages(options: AuthRouteOptions) {
  return {
    signUp: (form: AuthForm) => signUpPage(form, { mode: options.signupMode, minPassword: PASSWORD_MIN }),
    signIn: (form: AuthForm) =>
      signInPage(form, {
        signupMode: options.signupMode,
        oidcName: options.oidcName,
        resetByMail: options.resetByMail,
      }),
    nextOf: (request: FastifyRequest) =>
      safeNext((request.query as Record<string, unknown>).next) ?? safeNext(field(request.body, 'next')),
  };
}

/** The mails of a sign-up by mail, when mail is configured. */
function signUpByMail(options: AuthRouteOptions, onMailError: (error: unknown) => void) {
  const { store, counter, baseUrl, mailer } = options;
  if (!store || !counter || !baseUrl || !mailer) return undefined;
  return mailLinks({ store, counter, baseUrl, mailer, onMailError, now: options.now }).signUpMail;
}

export async function authRoutes(app: FastifyInstance, options: AuthRouteOptions): Promise<void> {
  await app.register(signInRoutes, options);
  await app.register(signUpRoutes, options);
}

async function signInRoutes(app: FastifyInstance, options: AuthRouteOptions): Promise<void> {
  const { formToken, hasFormToken } = options.forms;
  const { signIn, nextOf } = authPages(options);

  app.get('/login', async (request, reply) => {
    const next = nextOf(request);
    if (await signedIn(options, request)) return reply.redirect(next ?? '/dashboard', 303);
    const done = field(request.query, 'done') || undefined;
    return sendPage(reply, 200, signIn({ csrfToken: formToken(request, reply, options.policy), next, done }));
  });

  app.post('/login', async (request, reply) => {
    if (!hasFormToken(request)) return refuseForgedForm(reply);
    const email = field(request.body, 'email');
    const next = nextOf(request);
    const csrfToken = formToken(request, reply, options.policy);
    try {
      const user = await options.auth.signIn(email, field(request.body, 'password'), request.ip);
      if (user.twoFactor) return askForCode(options, reply, { userId: user.id, csrfToken, next });
      await startSession(options, request, reply, user.id);
      return reply.redirect(next ?? '/dashboard', 303);
    } catch (error) {
      const { status, error: shown } = refusedOn(reply, error);
      return sendPage(reply, status, signIn({ csrfToken, email, error: shown, next }));
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

async function signUpRoutes(app: FastifyInstance, options: AuthRouteOptions): Promise<void> {
  const { formToken, hasFormToken } = options.forms;
  const { signUp, nextOf } = authPages(options);
  const signupOn = options.signupMode !== 'closed';
  const onMailError = (error: unknown) =>
    app.log.error({ err: error }, 'a sign-up by mail failed after its answer');
  // With mail, a taken email is answered as a new one and told so by mail (docs/api.md §11).
  const byMail = signUpByMail(options, onMailError);

  app.get('/signup', async (request, reply) => {
    const next = nextOf(request);
    if (signupOn && (await signedIn(options, request))) return reply.redirect(next ?? '/dashboard', 303);
    const email = field(request.query, 'email');
    return sendPage(
      reply,
      200,
      signUp({ csrfToken: formToken(request, reply, options.policy), next, email }),
    );
  });

  app.post('/signup', async (request, reply) => {
    // A closed sign-up is refused before the form's token is even looked at.
    if (signupOn && !hasFormToken(request)) return refuseForgedForm(reply);
    const email = field(request.body, 'email');
    const next = nextOf(request);
    const signUpRequest = {
      email,
      password: field(request.body, 'password'),
      address: request.ip,
      invitationToken: invitationTokenOf(next),
    };
    try {
      if (byMail) {
        await options.auth.signUpByMail(signUpRequest, byMail, onMailError);
        return sendPage(reply, 200, signUpMailedPage(email.trim(), next));
      }
      const created = await options.auth.signUp(signUpRequest);
      const { user, workspace } = created.account;
      const session = await startSession(options, request, reply, user.id);
      if (next) return reply.redirect(next, 303);
      if (!workspace.plan.apiAccess) return reply.redirect(workspacePath(workspace.slug), 303);
      setFreshKey(reply, options.policy, session.id, created.apiKey, options.now());
      return reply.redirect(workspacePath(workspace.slug, '/keys'), 303);
    } catch (error) {
      const { status, error: shown } = refusedOn(reply, error);
      if (shown.code === 'plan-missing') request.log.error('SIGNUP_PLAN names no plan');
      const csrfToken = signupOn ? formToken(request, reply, options.policy) : '';
      return sendPage(reply, status, signUp({ csrfToken, email, error: shown, next }));
    }
  });
}
