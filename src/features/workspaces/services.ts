import { randomBytes } from 'node:crypto';
import { accountKeys, mainKeys } from '../../core/key-authentication.ts';
import { joinPorts, type Ports } from '../../core/ports/store.ts';
import { identityProviderOf } from '../../kernel/adapters.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { signedFormTokens } from '../../web/session/csrf.ts';
import { accountLife } from './account-life.ts';
import { apiAccess } from './api-access.ts';
import { invitationsService } from './invitations.ts';
import { KeyUses } from './key-uses.ts';
import { membersService } from './members.ts';
import { oidcSignIn } from './oidc-sign-in.ts';
import { pendingSignIns } from './sealed.ts';
import { signInService } from './sign-in.ts';
import { twoFactorService } from './two-factor.ts';
import { workspaceAdmin } from './workspace-admin.ts';

/**
 * People and their keys, built once per process: the keys of /create and /api/v1 (their failed-key
 * limiter and last uses), sign-up and sign-in (password and OIDC), the signed-out forms' tokens,
 * members, invitations and each workspace's admin. The sign-up plan is checked here, so a server
 * never starts without it.
 */
export async function workspaceServices(
  kernel: Kernel,
  ports: Pick<Ports, 'accounts' | 'workspaces' | 'invitations' | 'keys' | 'secrets' | 'abuse' | 'sessions'>,
) {
  const { counter, now, config } = kernel;
  const store = joinPorts(ports);
  const keyUses = new KeyUses(store, {
    intervalMs: config.clickFlushMs,
    now,
    onError: kernel.log.error('writing key uses failed; kept for the next flush'),
  });
  kernel.onClose(() => keyUses.close());
  const keyChecks = {
    counter,
    failedKeyLimit: config.failedKeyLimit,
    failedKeyWindowMs: config.failedKeyWindowSeconds * 1000,
    now,
  };
  const onUsed = (keyId: number) => keyUses.note(keyId);
  const { signup: mode, signupPlan: plan, signupBlockDisposable: blockDisposable } = config;
  const signup = { mode, plan, blockDisposable };
  const auth = signInService({
    store,
    counter,
    signup,
    limits: {
      perAccount: config.signinAccountLimit,
      perAddress: config.signinAddressLimit,
      windowMs: config.signinWindowSeconds * 1000,
    },
    now,
  });
  if (kernel.mode === 'server') await auth.checkSignupPlan();
  // Every instance signs the signed-out forms with the same key: the first to start stores it.
  const formKey = await store.secret('form-tokens', randomBytes(32));
  const provider = identityProviderOf(kernel);
  const mailer = await kernel.mailer();
  // TOTP secrets are sealed with a key every instance shares, kept apart from the database's rows.
  const sealKey = await store.secret('two-factor-seal', randomBytes(32));
  const twoFactor = twoFactorService({
    store,
    counter,
    sealKey,
    issuer: config.baseUrl.hostname,
    now,
    audit: kernel.audit,
  });
  return {
    /** The workspace keys of /create and /api/v1. */
    keys: accountKeys(store, { ...keyChecks, onUsed }),
    /** A workspace's main key, for the compatibility APIs' sign-in by password. */
    workspaceKeys: mainKeys(store, { ...keyChecks, onUsed }),
    /** The failed-key limiter's settings, for gates of their own (the demo's). */
    keyChecks,
    keyUses,
    forms: signedFormTokens(formKey, now),
    auth,
    twoFactor,
    /** The step between a right password and a right code (two-factor sign-in). */
    pendingSignIns: pendingSignIns(formKey, now),
    life: accountLife({
      store,
      auth,
      counter,
      baseUrl: config.baseUrl,
      mailer,
      onMailError: kernel.log.error('a change of email could not be mailed'),
      now,
      audit: kernel.audit,
    }),
    oidc: provider && oidcSignIn({ provider, store, signup }),
    apiAccess: apiAccess(store, kernel.audit),
    members: membersService(store, kernel.audit),
    invitations: invitationsService({
      store,
      baseUrl: config.baseUrl,
      mailer,
      onMailError: kernel.log.error('an invitation could not be mailed'),
      now,
      audit: kernel.audit,
    }),
    admin: workspaceAdmin(store, kernel.audit),
  };
}

export type WorkspaceServices = Awaited<ReturnType<typeof workspaceServices>>;
