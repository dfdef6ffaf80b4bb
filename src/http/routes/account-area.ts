import cookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { accountGroups } from '../../services/account-groups.ts';
import { apiAccess } from '../../services/api-access.ts';
import type { CreatedLink, CreateLinkRequest } from '../../services/create-link.ts';
import { dashboardService } from '../../services/dashboard.ts';
import { sessionService } from '../../services/sessions.ts';
import { signInService } from '../../services/sign-in.ts';
import type { WindowCounter } from '../../state/window-counter.ts';
import type { Store } from '../../store/ports.ts';
import { landingPage } from '../../web/pages/landing.ts';
import { messagePage } from '../../web/pages/message.ts';
import { testerPage } from '../../web/pages/tester.ts';
import { type SessionDeps, signedIn } from '../session.ts';
import { frameOf, sendPage } from '../signed-in.ts';
import { accountRoutes } from './account.ts';
import { authRoutes } from './auth.ts';
import { dashboardRoutes } from './dashboard.ts';

/** Everything behind a session: sign-up/in/out, the dashboard and Account Settings, in one encapsulated scope. */

export interface AccountAreaOptions {
  config: Config;
  store: Store;
  counter: WindowCounter;
  /** The /create story gated by the session's account (sessionKeyGate). */
  createLink: (request: CreateLinkRequest) => Promise<CreatedLink>;
  /** Told of each deleted code (link caches forget it, so the redirect stops at once). */
  onLinkDeleted: (code: string) => void | Promise<void>;
  now: () => number;
}

/** Sign-up must not fail later for a reason known now: the plan of new accounts has to exist. */
export async function checkSignupPlan(config: Config, store: Pick<Store, 'findPlanByName'>): Promise<void> {
  if (config.signup === 'open' && !(await store.findPlanByName(config.signupPlan))) {
    throw new Error(
      `SIGNUP_PLAN "${config.signupPlan}" is not a plan: create it (npx snip plan create ${config.signupPlan}), ` +
        'set SIGNUP_PLAN to an existing plan, or set SIGNUP=closed',
    );
  }
}

export async function accountArea(app: FastifyInstance, options: AccountAreaOptions): Promise<void> {
  const { config, store, counter, now } = options;
  await checkSignupPlan(config, store);
  // Pages, not API: none of these routes belongs in /openapi.json.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(cookie);

  const session: SessionDeps = {
    sessions: sessionService({ store, ttlMs: config.sessionTtlHours * 3_600_000, now }),
    accounts: store,
    policy: { secure: config.baseUrl.protocol === 'https:' },
    now,
  };
  const auth = signInService({
    store,
    counter,
    signup: { open: config.signup === 'open', plan: config.signupPlan },
    limits: {
      perAccount: config.signinAccountLimit,
      perAddress: config.signinAddressLimit,
      windowMs: config.signinWindowSeconds * 1000,
    },
    now,
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status === 500) request.log.error({ err: error }, 'page failed');
    const message =
      status === 500 ? 'Something went wrong on our side. Try again.' : 'The request could not be read.';
    return sendPage(
      reply,
      status,
      messagePage({
        title: status === 500 ? 'Server error' : 'Bad request',
        error: { code: String(status), message },
      }),
    );
  });

  await app.register(authRoutes, { ...session, auth, signupOpen: config.signup === 'open' });
  await app.register(dashboardRoutes, {
    ...session,
    dashboard: dashboardService({ store, counter, onDeleted: options.onLinkDeleted, now }),
    groups: accountGroups(store),
    createLink: options.createLink,
    baseUrl: config.baseUrl,
  });
  await app.register(accountRoutes, { ...session, keys: apiAccess(store), auth });

  // The public pages live here too, so their navigation knows who is signed in.
  const frameFor = async (request: FastifyRequest) => {
    const user = await signedIn(session, request);
    return user && frameOf(user);
  };
  app.get('/', async (request, reply) => sendPage(reply, 200, landingPage(await frameFor(request))));
  app.get('/tester', async (request, reply) =>
    sendPage(reply, 200, testerPage(config.demoApiKey, await frameFor(request))),
  );
}
