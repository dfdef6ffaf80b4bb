import { issueApiKey } from '../../core/api-key.ts';
import { may, type Role, scopesWithinRole } from '../../core/authorization.ts';
import type { ApiKeyInfo, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { KeyStore } from '../../core/ports/store.ts';
import { MAX_KEYS_PER_ACCOUNT, type Scope } from '../../core/scopes.ts';

/** A new key for the account, revoking its old one at once; the key itself is returned, never stored. */
export async function issueAccountKey(
  store: Pick<KeyStore, 'replaceMainKey'>,
  workspaceId: number,
  madeBy: number | null,
): Promise<string> {
  const issued = issueApiKey();
  await store.replaceMainKey(workspaceId, issued.prefix, issued.hash, madeBy);
  return issued.key;
}

/** Characters of a further key's name. */
export const MAX_KEY_NAME = 60;

/** Who makes or changes a key: a member (their id and role) or the operator (null: any role). */
export interface KeyMaker {
  userId: number | null;
  role: Role;
}

/** Refuses unless the maker's role may manage keys, and every scope is within that role (core/authorization.ts). */
export function checkKeyMaker(maker: KeyMaker, scopes: readonly Scope[] = []): void {
  if (!may(maker.role, 'keys:write')) {
    throw new Refusal('forbidden', 'Only admins and owners make or revoke keys.');
  }
  if (!scopesWithinRole(maker.role, scopes)) throw new Refusal('scope-too-wide');
}

/**
 * A workspace's keys (docs/api.md §7.1, §11): the main key's prefix and its rotation, and the
 * further keys with a name and scopes, each shown once. Admins and owners make them; a key
 * remembers its maker, whose role bounds it and whose removal revokes it.
 */
export function apiAccess(store: Pick<KeyStore, 'replaceMainKey' | 'listLiveKeys' | 'addKey' | 'revokeKey'>) {
  const requireAccess = (workspace: Workspace) => {
    if (!workspace.plan.apiAccess)
      throw new Refusal('no-api-access', 'Your plan does not include API access.');
  };

  return {
    /** Every live key, the main key first; none without API access. */
    async keys(workspace: Workspace): Promise<ApiKeyInfo[]> {
      return workspace.plan.apiAccess ? store.listLiveKeys(workspace.id) : [];
    },

    /** A new main key; the old one stops working at once. */
    async rotate(workspace: Workspace, maker: KeyMaker): Promise<string> {
      checkKeyMaker(maker);
      requireAccess(workspace);
      return issueAccountKey(store, workspace.id, maker.userId);
    },

    /** A further key with a name and scopes; the key itself is returned, to be shown once. */
    async add(
      workspace: Workspace,
      maker: KeyMaker,
      name: string,
      scopes: readonly Scope[],
    ): Promise<string> {
      checkKeyMaker(maker, scopes);
      requireAccess(workspace);
      const trimmed = name.trim();
      if (trimmed === '' || [...trimmed].length > MAX_KEY_NAME) throw new Refusal('key-name-invalid');
      if (scopes.length === 0) throw new Refusal('scopes-required');
      const issued = issueApiKey();
      const result = await store.addKey(workspace.id, {
        createdBy: maker.userId,
        name: trimmed,
        scopes,
        prefix: issued.prefix,
        hash: issued.hash,
      });
      if (result.kind === 'too-many') {
        throw new Refusal(
          'too-many-keys',
          `A workspace holds at most ${MAX_KEYS_PER_ACCOUNT} keys; revoke one first.`,
        );
      }
      return issued.key;
    },

    /** Revokes a further key of the workspace; the main key is rotated instead. */
    async revoke(workspace: Workspace, maker: KeyMaker, keyId: number): Promise<void> {
      checkKeyMaker(maker);
      if (!(await store.revokeKey(workspace.id, keyId))) {
        throw new Refusal('not-found', 'This workspace has no further key with that ID.');
      }
    },
  };
}

export type ApiAccess = ReturnType<typeof apiAccess>;
