/** Domains on either dialect (adapters/sql/script.ts): the port's scripts and the row they read. */
import type { Domain } from '../../core/entities.ts';
import type {
  AddDomainResult,
  ClaimLimits,
  DomainChange,
  DomainStore,
  NewDomain,
  RemoveDomainResult,
  VerifyDomainResult,
} from '../../core/ports/domain-store.ts';
import { dateOrNull, mapFirst, type Row, truthy } from './rows.ts';
import { lockHost, lockWorkspace, q, type Script, type ScriptRunner } from './script.ts';
import { type UniqueIndex, violates } from './unique.ts';

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

/** An unverified domain not removed: a workspace's claim on its host. */
const CLAIM = 'verified_at IS NULL AND deleted_at IS NULL';

/** Each host has at most one verified row, removed or not: it holds the host's code space (migration 017). */
const VERIFIED_HOST: UniqueIndex = { postgres: 'domains_verified_host', sqlite: ['domains.host'] };

const ADDED_BY_NOW = (): ClaimLimits => ({ at: new Date(), expiredBefore: new Date(0), max: Infinity });

function* addDomain(domain: NewDomain, limits: ClaimLimits): Script<AddDomainResult> {
  const at = limits.at.getTime();
  const served = yield q(
    'SELECT 1 FROM domains WHERE host = ? AND verified_at IS NOT NULL AND deleted_at IS NULL',
    domain.host,
  );
  if (served.length > 0) return { kind: 'taken' };
  if (domain.workspaceId !== null) {
    yield lockWorkspace(domain.workspaceId);
    // Its expired claims go now: they count no more, and the workspace may claim the host again.
    yield q(
      `UPDATE domains SET deleted_at = ? WHERE workspace_id = ? AND ${CLAIM} AND created_at < ?`,
      at,
      domain.workspaceId,
      limits.expiredBefore.getTime(),
    );
    const [pending] = yield q(
      `SELECT count(*) AS n FROM domains WHERE workspace_id = ? AND ${CLAIM}`,
      domain.workspaceId,
    );
    if (!domain.verified && Number(pending?.n ?? 0) >= limits.max) return { kind: 'too-many-pending' };
  }
  const inserted = yield q(
    `INSERT INTO domains (host, workspace_id, shared, verification_token, verified_at, https, created_at)
     VALUES (?, ?, ${domain.shared ? 'true' : 'false'}, ?, NULL, true, ?) ON CONFLICT DO NOTHING
     RETURNING ${DOMAIN_COLUMNS}`,
    domain.host,
    domain.workspaceId,
    domain.verificationToken,
    at,
  );
  const claim = mapFirst(inserted, toDomain);
  if (!claim) return { kind: 'taken' };
  if (!domain.verified) return { kind: 'added', domain: claim, dropped: [] };
  const result = yield* serve(claim, at);
  if (result.kind === 'verified') return { kind: 'added', domain: result.domain, dropped: result.dropped };
  yield q('DELETE FROM domains WHERE id = ?', claim.id);
  return { kind: 'taken' };
}

function* verifyDomain(id: number, at: number): Script<VerifyDomainResult> {
  const found = yield q(`SELECT ${DOMAIN_COLUMNS} FROM domains WHERE id = ? AND deleted_at IS NULL`, id);
  const claim = mapFirst(found, toDomain);
  if (!claim) return { kind: 'not-found' };
  if (claim.verifiedAt !== null) return { kind: 'verified', domain: claim, dropped: [] };
  return yield* serve(claim, at);
}

/**
 * Makes a claim the domain its host serves. A host that had a verified domain (removed since), or
 * whose row holds codes, keeps that row: the claim moves onto it, so a code once issued on the host
 * is never issued there again. Every other claim on the host is dropped.
 */
function* serve(claim: Domain, at: number): Script<VerifyDomainResult> {
  // Two claims of one host served at once each locked the other's row (a deadlock on PostgreSQL):
  // the second now waits here, then finds the host verified below.
  yield lockHost(claim.host);
  const held = yield q(
    `SELECT ${DOMAIN_COLUMNS}, deleted_at FROM domains d WHERE host = ? AND id <> ?
       AND (verified_at IS NOT NULL OR EXISTS (SELECT 1 FROM links WHERE links.domain_id = d.id))
     ORDER BY id LIMIT 1`,
    claim.host,
    claim.id,
  );
  const space = held[0];
  const live = space !== undefined && space.deleted_at === null;
  if (live && space.verified_at !== null) return { kind: 'taken' };
  const dropped = live ? [toDomain(space)] : [];
  let rows: Row[];
  if (space === undefined) {
    rows = yield q(
      `UPDATE domains SET verified_at = ? WHERE id = ? RETURNING ${DOMAIN_COLUMNS}`,
      at,
      claim.id,
    );
  } else {
    yield q('UPDATE domains SET deleted_at = ? WHERE id = ?', at, claim.id);
    rows = yield q(
      `UPDATE domains SET workspace_id = ?, shared = ${claim.shared ? 'true' : 'false'},
         verification_token = ?, verified_at = ?, https = ${claim.https ? 'true' : 'false'},
         root_redirect = ?, not_found_redirect = ?, created_at = ?, deleted_at = NULL
       WHERE id = ? RETURNING ${DOMAIN_COLUMNS}`,
      claim.workspaceId,
      claim.verificationToken,
      at,
      claim.rootRedirect,
      claim.notFoundRedirect,
      claim.createdAt.getTime(),
      Number(space.id),
    );
  }
  const domain = toDomain(rows[0] as Row);
  const others = yield q(
    `UPDATE domains SET deleted_at = ? WHERE host = ? AND id <> ? AND ${CLAIM} RETURNING ${DOMAIN_COLUMNS}`,
    at,
    claim.host,
    domain.id,
  );
  return { kind: 'verified', domain, dropped: [...dropped, ...others.map(toDomain)] };
}

function* purgeExpiredClaims(expiredBefore: number): Script<number> {
  const gone = yield q(
    `DELETE FROM domains WHERE id <> 0 AND verified_at IS NULL
       AND (deleted_at IS NOT NULL OR created_at < ?)
       AND NOT EXISTS (SELECT 1 FROM links WHERE links.domain_id = domains.id)
     RETURNING id`,
    expiredBefore,
  );
  return gone.length;
}

/** A unique violation of VERIFIED_HOST (another transaction verified the host first) as taken. */
const takenOnRace = (error: unknown): { kind: 'taken' } => {
  if (violates(error, VERIFIED_HOST)) return { kind: 'taken' };
  throw error;
};

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
  const found = yield q(
    'SELECT host, verified_at FROM domains WHERE id = ? AND deleted_at IS NULL AND id <> 0',
    id,
  );
  const host = found[0]?.host as string | undefined;
  if (host === undefined) return 'not-found';
  const live = yield q('SELECT 1 FROM links WHERE domain_id = ? AND deleted_at IS NULL LIMIT 1', id);
  if (live.length > 0) return 'has-links';
  yield q('UPDATE domains SET deleted_at = ? WHERE id = ?', now, id);
  // A claim is nobody's default: the host's verified domain, if another holds it, stays chosen.
  if (found[0]?.verified_at === null) return 'removed';
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
    addDomain: (domain, limits = ADDED_BY_NOW()) => write(addDomain(domain, limits)).catch(takenOnRace),
    verifyDomain: (id, at) => write(verifyDomain(id, at.getTime())).catch(takenOnRace),
    purgeExpiredClaims: (expiredBefore) => write(purgeExpiredClaims(expiredBefore.getTime())),
    updateDomain: (id, change) => write(updateDomain(id, change)),
    removeDomain: (id) => write(removeDomain(id, Date.now())),
    countLinksPerDomain: (workspaceId) => read(countLinksPerDomain(workspaceId)),
    listDefaultDomains: () => read(listDefaultDomains()),
    setDefaultDomain: (workspaceId, host) => write(setDefaultDomain(workspaceId, host)),
  };
}
