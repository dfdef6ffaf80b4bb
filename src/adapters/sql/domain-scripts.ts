/** Domains on either dialect (adapters/sql/script.ts): the port's scripts and the row they read. */
import type { Domain } from '../../core/entities.ts';
import type {
  AddDomainResult,
  DomainChange,
  DomainStore,
  NewDomain,
  RemoveDomainResult,
} from '../../core/ports/domain-store.ts';
import { dateOrNull, mapFirst, type Row, truthy } from './rows.ts';
import { q, type Script, type ScriptRunner } from './script.ts';

const DOMAIN_COLUMNS =
  'id, host, workspace_id, shared, verification_token, verified_at, https, root_redirect, ' +
  'not_found_redirect, created_at';

function toDomain(row: Row): Domain {
  return {
    id: Number(row.id),
    host: row.host as string,
    workspaceId: row.workspace_id === null ? null : Number(row.workspace_id),
    shared: truthy(row.shared),
    verifiedAt: dateOrNull(row.verified_at),
    verificationToken: row.verification_token as string,
    https: truthy(row.https),
    rootRedirect: (row.root_redirect as string | null) ?? null,
    notFoundRedirect: (row.not_found_redirect as string | null) ?? null,
    createdAt: new Date(Number(row.created_at)),
  };
}

function* listDomains(): Script<Domain[]> {
  const rows = yield q(`SELECT ${DOMAIN_COLUMNS} FROM domains WHERE deleted_at IS NULL ORDER BY id`);
  return rows.map(toDomain);
}

function* addDomain(domain: NewDomain, now: number): Script<AddDomainResult> {
  const verifiedAt = domain.verified ? now : null;
  const shared = domain.shared ? 'true' : 'false';
  // A removed domain of that host is taken back (same id, so its codes stay issued), as new.
  const revived = yield q(
    `UPDATE domains SET workspace_id = ?, shared = ${shared}, verification_token = ?, verified_at = ?,
       https = true, root_redirect = NULL, not_found_redirect = NULL, created_at = ?, deleted_at = NULL
     WHERE host = ? AND deleted_at IS NOT NULL RETURNING ${DOMAIN_COLUMNS}`,
    domain.workspaceId,
    domain.verificationToken,
    verifiedAt,
    now,
    domain.host,
  );
  const inserted =
    revived.length > 0
      ? revived
      : yield q(
          `INSERT INTO domains (host, workspace_id, shared, verification_token, verified_at, https, created_at)
           VALUES (?, ?, ${shared}, ?, ?, true, ?) ON CONFLICT DO NOTHING RETURNING ${DOMAIN_COLUMNS}`,
          domain.host,
          domain.workspaceId,
          domain.verificationToken,
          verifiedAt,
          now,
        );
  const added = mapFirst(inserted, toDomain);
  return added ? { kind: 'added', domain: added } : { kind: 'taken' };
}

function* updateDomain(id: number, change: DomainChange): Script<Domain | undefined> {
  const sets: string[] = [];
  const params: Array<string | number | null> = [];
  const set = (column: string, value: string | number | null) => {
    sets.push(`${column} = ?`);
    params.push(value);
  };
  if (change.https !== undefined) sets.push(`https = ${change.https ? 'true' : 'false'}`);
  if (change.rootRedirect !== undefined) set('root_redirect', change.rootRedirect);
  if (change.notFoundRedirect !== undefined) set('not_found_redirect', change.notFoundRedirect);
  if (change.verifiedAt !== undefined) set('verified_at', change.verifiedAt.getTime());
  const assignments = sets.length > 0 ? sets.join(', ') : 'id = id';
  const rows = yield q(
    `UPDATE domains SET ${assignments} WHERE id = ? AND deleted_at IS NULL RETURNING ${DOMAIN_COLUMNS}`,
    ...params,
    id,
  );
  return mapFirst(rows, toDomain);
}

function* removeDomain(id: number, now: number): Script<RemoveDomainResult> {
  const found = yield q('SELECT host FROM domains WHERE id = ? AND deleted_at IS NULL AND id <> 0', id);
  const host = found[0]?.host as string | undefined;
  if (host === undefined) return 'not-found';
  const live = yield q('SELECT 1 FROM links WHERE domain_id = ? AND deleted_at IS NULL LIMIT 1', id);
  if (live.length > 0) return 'has-links';
  yield q('UPDATE domains SET deleted_at = ? WHERE id = ?', now, id);
  yield q('UPDATE workspaces SET default_domain = NULL WHERE default_domain = ?', host);
  return 'removed';
}

function* countLinksPerDomain(workspaceId: number | null): Script<Map<number, number>> {
  const rows =
    workspaceId === null
      ? yield q('SELECT domain_id, count(*) AS n FROM links WHERE deleted_at IS NULL GROUP BY domain_id')
      : yield q(
          `SELECT domain_id, count(*) AS n FROM links WHERE workspace_id = ? AND deleted_at IS NULL
           GROUP BY domain_id`,
          workspaceId,
        );
  return new Map(rows.map((row) => [Number(row.domain_id), Number(row.n)]));
}

function* listDefaultDomains(): Script<Array<{ workspaceId: number; host: string }>> {
  const rows = yield q('SELECT id, default_domain FROM workspaces WHERE default_domain IS NOT NULL');
  return rows.map((row) => ({ workspaceId: Number(row.id), host: row.default_domain as string }));
}

function* setDefaultDomain(workspaceId: number, host: string | null): Script<void> {
  yield q('UPDATE workspaces SET default_domain = ? WHERE id = ?', host, workspaceId);
}

export function domainStore({ read, write }: ScriptRunner): DomainStore {
  return {
    listDomains: () => read(listDomains()),
    addDomain: (domain) => write(addDomain(domain, Date.now())),
    updateDomain: (id, change) => write(updateDomain(id, change)),
    removeDomain: (id) => write(removeDomain(id, Date.now())),
    countLinksPerDomain: (workspaceId) => read(countLinksPerDomain(workspaceId)),
    listDefaultDomains: () => read(listDefaultDomains()),
    setDefaultDomain: (workspaceId, host) => write(setDefaultDomain(workspaceId, host)),
  };
}
