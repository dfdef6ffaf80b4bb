import { randomBytes } from 'node:crypto';
import { accountGroups } from '../../core/groups.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { Store } from '../../core/ports/store.ts';
import { apiAccess } from './api-access.ts';
import { signedFormTokens } from './csrf.ts';
import { dashboardService } from './dashboard.ts';
import type { SessionDeps } from './session-cookie.ts';
import { sessionService } from './sessions.ts';
import { signInService } from './sign-in.ts';
import { visitStats } from './visit-stats.ts';

/** The settings of the account pages (SESSION_TTL_HOURS, SIGNUP, SIGNUP_PLAN, SIGNIN_*). */
export interface AccountSettings {
  baseUrl: URL;
  sessionTtlHours: number;
  signup: 'open' | 'closed';
  signupPlan: string;
  signinAccountLimit: number;
  signinAddressLimit: number;
  signinWindowSeconds: number;
  /** ANALYTICS_RETENTION_DAYS: how far back the stats pages offer hourly bars. */
  analyticsRetentionDays: number;
}

export interface AccountPorts {
  store: Store;
  counter: WindowCounter;
  now: () => number;
}

/** The services behind the account pages, built once by app.ts from its ports and settings. */
export async function accountServices(settings: AccountSettings, { store, counter, now }: AccountPorts) {
  const session: SessionDeps = {
    sessions: sessionService({ store, ttlMs: settings.sessionTtlHours * 3_600_000, now }),
    accounts: store,
    policy: { secure: settings.baseUrl.protocol === 'https:' },
    now,
  };
  // Every instance signs the signed-out forms with the same key: the first to start stores it.
  const formKey = await store.secret('form-tokens', randomBytes(32));
  return {
    session,
    forms: signedFormTokens(formKey, now),
    auth: signInService({
      store,
      counter,
      signup: { open: settings.signup === 'open', plan: settings.signupPlan },
      limits: {
        perAccount: settings.signinAccountLimit,
        perAddress: settings.signinAddressLimit,
        windowMs: settings.signinWindowSeconds * 1000,
      },
      now,
    }),
    dashboard: dashboardService({ store, counter, now }),
    groups: accountGroups(store),
    keys: apiAccess(store),
    stats: visitStats({ store, now, retentionDays: settings.analyticsRetentionDays }),
  };
}
