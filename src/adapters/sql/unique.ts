/**
 * Unique violations told apart the same way on both dialects. PostgreSQL names the constraint or
 * index that refused the row; SQLite names its columns (`UNIQUE constraint failed: links.domain_id,
 * links.code`). A script names the index once, as both know it, and asks `violates`.
 */

export interface UniqueIndex {
  /** The constraint's or unique index's name on PostgreSQL. */
  postgres: string;
  /** Its columns as SQLite reports them, `table.column`. */
  sqlite: readonly string[];
}

/** The unique indexes a script tells apart from other failures. */
export const UNIQUE = {
  groupApiId: { postgres: 'groups_account_api_id_unique', sqlite: ['groups.workspace_id', 'groups.api_id'] },
  linkCode: { postgres: 'links_domain_code_unique', sqlite: ['links.domain_id', 'links.code'] },
  linkLiveUrl: {
    postgres: 'links_live_url',
    sqlite: ['links.workspace_id', 'links.domain_id', 'links.url_hash'],
  },
  mainKey: { postgres: 'api_keys_one_main', sqlite: ['api_keys.workspace_id'] },
} as const satisfies Record<string, UniqueIndex>;

const PG_UNIQUE_VIOLATION = '23505';
const SQLITE_CONSTRAINT_UNIQUE = 2067;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_PREFIX = 'UNIQUE constraint failed: ';

/** True when `error` is a unique violation of exactly this index, on either dialect. */
export function violates(error: unknown, index: UniqueIndex): boolean {
  if (!(error instanceof Error)) return false;
  const { code, constraint_name, errcode } = error as Error & {
    code?: unknown;
    constraint_name?: unknown;
    errcode?: unknown;
  };
  if (code === PG_UNIQUE_VIOLATION) return constraint_name === index.postgres;
  if (errcode !== SQLITE_CONSTRAINT_UNIQUE && errcode !== SQLITE_CONSTRAINT_PRIMARYKEY) return false;
  if (!error.message.startsWith(SQLITE_PREFIX)) return false;
  const named = error.message.slice(SQLITE_PREFIX.length).split(', ');
  return named.length === index.sqlite.length && index.sqlite.every((column) => named.includes(column));
}
