import type { FastifyInstance } from 'fastify';
import type { AccountGroups } from '../../core/groups.ts';
import type { CreateLinkFor } from '../../core/ports/link-creator.ts';
import type { LinkEditor } from '../../core/ports/link-editor.ts';
import type { FrameOf } from '../../web/frame.ts';
import { answerErrorsAsPages } from '../../web/page-errors.ts';
import { accountRoutes } from './account-routes.ts';
import type { ApiAccess } from './api-access.ts';
import { authRoutes } from './auth-routes.ts';
import type { FormTokens } from './csrf.ts';
import type { DashboardService } from './dashboard.ts';
import { dashboardRoutes } from './dashboard-routes.ts';
import { type SessionDeps, signedIn } from './session-cookie.ts';
import type { SignInService } from './sign-in.ts';
import { frameOf } from './signed-in.ts';
import { statsRoutes } from './stats-routes.ts';
import type { VisitStats } from './visit-stats.ts';

/**
 * Everything behind a session: sign-up/in/out, the dashboard and Account Settings (ADR 009, 010).
 * Its services are built by app.ts; what it takes from other features, creating and changing links,
 * comes in as the CreateLinkFor and LinkEditor ports.
 */
export interface AccountsFeatureOptions {
  session: SessionDeps;
  auth: SignInService;
  forms: FormTokens;
  dashboard: DashboardService;
  groups: AccountGroups;
  keys: ApiAccess;
  /** Visit stats of the account and of each link (docs/api.md §9.4). */
  stats: VisitStats;
  createLinkFor: CreateLinkFor;
  /** Changing and deleting links with the checks of the API, told to every instance. */
  editor: LinkEditor;
  baseUrl: URL;
  signupOpen: boolean;
}

export const ACCOUNT_ASSETS = {
  'dashboard.js': new URL('./assets/dashboard.js', import.meta.url),
  'dashboard.css': new URL('./assets/dashboard.css', import.meta.url),
} as const;

/** Who is signed in, for the navigation of every page. */
export function frameOfSession(session: SessionDeps): FrameOf {
  return async (request) => {
    const user = await signedIn(session, request);
    return user && frameOf(user);
  };
}

export async function accountsFeature(app: FastifyInstance, options: AccountsFeatureOptions): Promise<void> {
  const { session, auth } = options;
  // Pages, not API: none of these routes belongs in /openapi.json.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  answerErrorsAsPages(app);

  await app.register(authRoutes, { ...session, auth, forms: options.forms, signupOpen: options.signupOpen });
  await app.register(dashboardRoutes, {
    ...session,
    dashboard: options.dashboard,
    groups: options.groups,
    createLinkFor: options.createLinkFor,
    editor: options.editor,
    baseUrl: options.baseUrl,
  });
  await app.register(statsRoutes, { ...session, stats: options.stats });
  await app.register(accountRoutes, { ...session, keys: options.keys, auth });
}
