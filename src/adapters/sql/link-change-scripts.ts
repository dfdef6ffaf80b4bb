/** A link's changes on either dialect: its new target, title, group or tags; tags and group counts. */
import type { Link } from '../../core/entities.ts';
import type { LinkStore, LinkUpdate, UpdateLinkResult } from '../../core/ports/store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { AliasTaken, renameCode } from './alias-scripts.ts';
import { CHANGE_SQL, changeStatement, countMap, tagMap } from './link-change.ts';
import { linkEvent } from './outbox-scripts.ts';
import { mapFirst, toLink } from './rows.ts';
import { q, type Script, type ScriptRunner } from './script.ts';
import { UNIQUE, violates } from './unique.ts';

type Changes = Pick<LinkStore, 'updateLink' | 'tagsOf' | 'countLinksPerGroup'>;

/** Tags of a link that has none yet, in one statement (a link has at most MAX_TAGS). */
export function* addTags(linkId: number, tags: readonly string[]): Script<void> {
  if (tags.length === 0) return;
  yield q(
    `INSERT INTO link_tags (link_id, tag) VALUES ${tags.map(() => '(?, ?)').join(', ')}`,
    ...tags.flatMap((tag) => [linkId, tag]),
  );
}

/** The link's tags replaced by these. */
export function* setTags(linkId: number, tags: readonly string[]): Script<void> {
  yield q(CHANGE_SQL.dropTags, linkId);
  yield* addTags(linkId, tags);
}

/** The account's live link on the domain to this normalized-URL hash, if any. */
export function* liveLinkByUrlHash(
  workspaceId: number,
  domainId: number,
  urlHash: string,
): Script<Link | undefined> {
  return mapFirst(yield q(CHANGE_SQL.liveByUrlHash, workspaceId, domainId, urlHash), toLink);
}

/** The links' counts per group (on SQLite a reader thread runs it: readers.ts). */
export function* countPerGroup(workspaceId: number): Script<Map<number, number>> {
  return countMap(yield q(CHANGE_SQL.perGroup, workspaceId));
}

/** Ids per statement of tagsOf: far below either dialect's limit on parameters. */
const IDS_PER_READ = 1024;

/**
 * The links' tags. Each list of ids is padded to a power of two (repeating its last id), so a few
 * statement texts serve every page size instead of one prepared statement per size.
 */
function* tagsOf(linkIds: readonly number[]): Script<Map<number, string[]>> {
  const rows = [];
  for (let start = 0; start < linkIds.length; start += IDS_PER_READ) {
    const part = linkIds.slice(start, start + IDS_PER_READ);
    const size = 2 ** Math.ceil(Math.log2(part.length));
    const padded = [...part, ...Array<number>(size - part.length).fill(part.at(-1) as number)];
    const marks = padded.map(() => '?').join(', ');
    rows.push(...(yield q(`SELECT link_id, tag FROM link_tags WHERE link_id IN (${marks})`, ...padded)));
  }
  return tagMap(rows);
}

/** The changed link, or undefined when the account has no such live link. */
function* change(
  workspaceId: number,
  domainId: number,
  code: string,
  linkChange: LinkUpdate,
  events: LinkEventSink | undefined,
): Script<Link | undefined> {
  const id = mapFirst(yield q(CHANGE_SQL.liveId, workspaceId, domainId, code), (row) => row.id as number);
  if (id === undefined) return undefined;
  if (linkChange.code !== undefined) yield* renameCode({ id, domainId, code }, linkChange.code);
  const { sql, values } = changeStatement(linkChange, Date.now());
  // A new target that another live link has fails here, on links_live_url, and the error ends the
  // script: PostgreSQL has aborted the transaction by then, so nothing may run after it in there.
  yield q(sql, ...values, id);
  if (linkChange.tags) yield* setTags(id, linkChange.tags);
  const link = mapFirst(yield q(CHANGE_SQL.byId, id), toLink);
  if (!link) throw new Error(`link ${code} vanished in its own transaction`);
  yield* linkEvent(events, 'link.updated', link);
  return link;
}

/**
 * `readers` answers the counts per group when given (SQLite's reader threads: the count grows with
 * the account's links); otherwise `runner` reads them.
 */
export function linkChangeStore(
  runner: ScriptRunner,
  readers?: Pick<LinkStore, 'countLinksPerGroup'>,
): Changes {
  return {
    async updateLink(workspaceId, domainId, code, linkChange, events): Promise<UpdateLinkResult> {
      try {
        const link = await runner.write(change(workspaceId, domainId, code, linkChange, events));
        return link ? { kind: 'updated', link } : { kind: 'not-found' };
      } catch (error) {
        // The new code is another link's, or its alias: nothing changed.
        if (error instanceof AliasTaken || violates(error, UNIQUE.linkCode)) return { kind: 'code-taken' };
        // The new target is another live link's: the statement failed, the transaction rolled back.
        if (!linkChange.target || !violates(error, UNIQUE.linkLiveUrl)) throw error;
        const existing = await runner.read(
          liveLinkByUrlHash(workspaceId, domainId, linkChange.target.urlHash),
        );
        if (!existing) throw error;
        return { kind: 'duplicate', existing };
      }
    },

    tagsOf: (linkIds) => runner.read(tagsOf(linkIds)),

    countLinksPerGroup: (workspaceId) =>
      readers ? readers.countLinksPerGroup(workspaceId) : runner.read(countPerGroup(workspaceId)),
  };
}
