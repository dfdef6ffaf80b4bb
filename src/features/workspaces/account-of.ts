import type { Account, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { normalizeEmail } from '../../core/plans.ts';
import type { AccountStore } from '../../core/ports/store.ts';

/** The user of that email (any case) with their personal workspace, or a refusal naming it. */
export async function accountWithEmail(
  store: Pick<AccountStore, 'findAccountByEmail'>,
  email: string,
): Promise<Account> {
  const normalized = normalizeEmail(email);
  const account = normalized ? await store.findAccountByEmail(normalized) : undefined;
  if (!account) throw new Refusal('no-such-account', `no account with email "${email}"`);
  return account;
}

/** What the section-6 commands that take an email act on: that user's personal workspace. */
export async function personalWorkspace(
  store: Pick<AccountStore, 'findAccountByEmail'>,
  email: string,
): Promise<Workspace> {
  return (await accountWithEmail(store, email)).workspace;
}
