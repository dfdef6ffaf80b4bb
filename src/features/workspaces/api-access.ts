import { issueApiKey } from '../../core/api-key.ts';
import { may, type Role, scopesWithinRole } from '../../core/authorization.ts';
import type { ApiKeyInfo, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { NO_AUDIT, type RecordAudit } from '../../core/moderation.ts';
import type { AccountStore, KeyStore } from '../../core/ports/store.ts';
import { MAX_KEYS_PER_ACCOUNT, type Scope } from '../../core/scopes.ts';
import { type AuditedActing, auditFact, auditTrail } from './audit-actor.ts';

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

/**
 * Who makes or changes a key: a member (their id and role) or the operator (null: any role); `by`
 * names them in the audit log.
 */
export interface KeyMaker extends AuditedActing {
  role: Role;
}

/** A key as the audit log shows it: never the key, never its hash. */
const auditedKey = (key: Pick<ApiKeyInfo, 'name' | 'prefix' | 'scopes'>) => ({
  name: key.name,
  prefix: key.prefix,
  scopes: [...key.scopes],
});

/** What the main key is called where keys are listed. */
const MAIN_KEY_NAME = 'API Access';

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
 * remembers its maker, whose role bounds it and whose removal revokes it. Each change is recorded
 * in the audit log (`audit`, none by default): key.create, key.revoke and key.rotate, with the key's
 * name, prefix and scopes.
 */
export function apiAccess(
  store: Pick<KeyStore, 'replaceMainKey' | 'listLiveKeys' | 'addKey' | 'revokeKey'> &
    Pick<AccountStore, 'findUserById'>,
  audit: RecordAudit = NO_AUDIT,
) {
  const record = auditTrail(audit, store);
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
      const old = (await store.listLiveKeys(workspace.id)).find((key) => key.main);
      const issued = issueApiKey();
      await store.replaceMainKey(workspace.id, issued.prefix, issued.hash, maker.userId);
      const before = old ? { prefix: old.prefix } : null;
      const target = old?.name ?? MAIN_KEY_NAME;
      await record(maker, auditFact(workspace.id, 'key.rotate', target, before, { prefix: issued.prefix }));
      return issued.key;
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
      const after = auditedKey({ name: trimmed, prefix: issued.prefix, scopes });
      await record(maker, auditFact(workspace.id, 'key.create', trimmed, null, after));
      return issued.key;
    },

    /** Revokes a further key of the workspace; the main key is rotated instead. */
    async revoke(workspace: Workspace, maker: KeyMaker, keyId: number): Promise<void> {
      checkKeyMaker(maker);
      const key = (await store.listLiveKeys(workspace.id)).find((one) => one.id === keyId);
      if (!(await store.revokeKey(workspace.id, keyId))) {
        throw new Refusal('not-found', 'This workspace has no further key with that ID.');
      }
      const before = key ? auditedKey(key) : null;
      await record(maker, auditFact(workspace.id, 'key.revoke', key?.name ?? `key ${keyId}`, before, null));
    },
  };
}

export type ApiAccess = ReturnType<typeof apiAccess>;
