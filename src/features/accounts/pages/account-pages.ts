import type { FastifyInstance } from 'fastify';
import { pageScope } from '../../../web/page-errors.ts';
import type { FormTokens } from '../../../web/session/csrf.ts';
import type { SessionDeps } from '../../../web/session/session-cookie.ts';
import type { ApiAccess } from '../api-access.ts';
import type { SignInService } from '../sign-in.ts';
import { accountRoutes } from './account-routes.ts';
import { authRoutes } from './auth-routes.ts';
import { keyRoutes } from './key-routes.ts';

/** Sign-up, sign-in and out, and Account Settings with its keys (ADR 009, 010). */
export interface AccountPagesOptions extends SessionDeps {
  auth: SignInService;
  forms: FormTokens;
  keys: ApiAccess;
  signupOpen: boolean;
}

export async function accountPages(app: FastifyInstance, options: AccountPagesOptions): Promise<void> {
  pageScope(app);
  const { auth, forms, keys, signupOpen } = options;
  await app.register(authRoutes, { ...options, auth, forms, signupOpen });
  await app.register(accountRoutes, { ...options, keys, auth });
  await app.register(keyRoutes, { ...options, keys, auth });
}
