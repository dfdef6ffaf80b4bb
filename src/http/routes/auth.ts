import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SignInService } from '../../services/sign-in.ts';
import { PASSWORD_MIN } from '../../services/sign-in.ts';
import { type AuthForm, signInPage, signUpPage } from '../../web/pages/auth-pages.ts';
import type { PageError } from '../../web/pages/notices.ts';
import { formToken, hasFormToken, hasSessionToken } from '../csrf.ts';
import { field } from '../form-fields.ts';
import { setFreshKey } from '../fresh-key.ts';
import {
  clearSessionCookie,
  SESSION_COOKIE,
  type SessionDeps,
  setSessionCookie,
  signedIn,
} from '../session.ts';
import { refuseForgedForm, sendPage } from '../signed-in.ts';

/** GET/POST /signup, GET/POST /login, POST /logout (SPEC.md 4). */

export interface AuthRouteOptions extends SessionDeps {
  auth: SignInService;
  signupOpen: boolean;
}

// One message for an unknown email and a wrong password, so the answer never tells which.
const SIGN_IN_FAILED: PageError = {
  code: 'sign-in-failed',
  message: 'The email or the password is not right.',
};

const SIGN_UP_ERRORS: Record<string, { status: number; error: PageError }> = {
  closed: { status: 403, error: { code: 'signup-closed', message: 'Sign-up is closed on this Snip.' } },
  'email-invalid': {
    status: 400,
    error: { code: 'email-invalid', message: 'That is not an email address.' },
  },
  'password-invalid': {
    status: 400,
    error: { code: 'password-invalid', message: `A password has ${PASSWORD_MIN} to 1,024 characters.` },
  },
  'email-taken': {
    status: 409,
    error: { code: 'email-taken', message: 'An account with this email exists. Sign in instead.' },
  },
  'plan-missing': {
    status: 503,
    error: {
      code: 'plan-missing',
      message: 'Sign-up is not available: the plan for new accounts does not exist. Tell the operator.',
    },
  },
};

function throttledError(retryAfterSeconds: number): PageError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return {
    code: 'throttled',
    message: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  };
}

export async function authRoutes(app: FastifyInstance, options: AuthRouteOptions): Promise<void> {
  const { auth } = options;
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
    const result = await auth.signIn(email, field(request.body, 'password'), request.ip);
    if (result.kind === 'throttled') {
      reply.header('retry-after', String(result.retryAfterSeconds));
      return sendPage(
        reply,
        429,
        signIn({ csrfToken, email, error: throttledError(result.retryAfterSeconds) }),
      );
    }
    if (result.kind === 'failed')
      return sendPage(reply, 401, signIn({ csrfToken, email, error: SIGN_IN_FAILED }));
    await startSession(request, reply, result.account.id);
    return reply.redirect('/dashboard', 303);
  });

  app.get('/signup', async (request, reply) => {
    if (options.signupOpen && (await signedIn(options, request))) return reply.redirect('/dashboard', 303);
    return sendPage(reply, 200, signUp({ csrfToken: formToken(request, reply, options.policy) }));
  });

  app.post('/signup', async (request, reply) => {
    if (!options.signupOpen)
      return sendPage(reply, 403, signUp({ csrfToken: '', error: SIGN_UP_ERRORS.closed?.error }));
    if (!hasFormToken(request)) return refuseForgedForm(reply);
    const email = field(request.body, 'email');
    const result = await auth.signUp(email, field(request.body, 'password'), request.ip);
    if (result.kind === 'created') {
      const session = await startSession(request, reply, result.account.id);
      if (!result.account.plan.apiAccess) return reply.redirect('/dashboard', 303);
      setFreshKey(reply, options.policy, session.id, result.apiKey, options.now());
      return reply.redirect('/account', 303);
    }
    const csrfToken = formToken(request, reply, options.policy);
    if (result.kind === 'throttled') {
      reply.header('retry-after', String(result.retryAfterSeconds));
      return sendPage(
        reply,
        429,
        signUp({ csrfToken, email, error: throttledError(result.retryAfterSeconds) }),
      );
    }
    const refusal = SIGN_UP_ERRORS[result.kind] ?? {
      status: 400,
      error: { code: result.kind, message: 'Refused.' },
    };
    if (result.kind === 'plan-missing') request.log.error({ plan: result.plan }, 'SIGNUP_PLAN names no plan');
    return sendPage(reply, refusal.status, signUp({ csrfToken, email, error: refusal.error }));
  });

  app.post('/logout', async (request, reply) => {
    const user = await signedIn(options, request);
    if (user && !hasSessionToken(request, user.session.csrfToken)) return refuseForgedForm(reply);
    await options.sessions.end(request.cookies[SESSION_COOKIE]);
    clearSessionCookie(options, reply);
    return reply.redirect('/login', 303);
  });
}
