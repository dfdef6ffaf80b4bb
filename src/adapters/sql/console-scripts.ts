/** The operator console's figures on either dialect (docs/api.md §22): one statement each. */
import type {
  ConsoleLink,
  ConsoleStore,
  ConsoleWorkspace,
  DayCount,
  WorkspaceFigures,
} from '../../core/ports/console-store.ts';
import { LINK_COLUMNS, type Row, toLink } from './rows.ts';
import { rowsOf, type ScriptRunner } from './script.ts';

const DAY_MS = 86_400_000;

/** The owner a workspace is named by: its personal user, else its first owner. */
const OWNER = `coalesce((SELECT ou.email FROM users ou WHERE ou.id = w.personal_of),
  (SELECT ou.email FROM memberships om JOIN users ou ON ou.id = om.user_id
    WHERE om.workspace_id = w.id AND om.role = 'owner' ORDER BY om.user_id LIMIT 1))`;

const WORKSPACE = `w.id AS w_id, w.slug AS w_slug, w.name AS w_name, w.suspended_at AS w_suspended_at, ${OWNER} AS w_owner`;

function toWorkspace(row: Row): ConsoleWorkspace {
  return {
    id: Number(row.w_id),
    slug: row.w_slug as string,
    name: row.w_name as string,
    suspended: row.w_suspended_at !== null && row.w_suspended_at !== undefined,
    owner: (row.w_owner as string | null) ?? null,
  };
}

const toConsoleLink = (row: Row): ConsoleLink => ({ link: toLink(row), workspace: toWorkspace(row) });

const toDayCount = (row: Row): DayCount => ({ day: Number(row.day), count: Number(row.n) });

/** The links a selection of `links` finds (`where`, with its order and limit), each with its workspace. */
const withWorkspace = (where: string) =>
  `SELECT lk.*, ${WORKSPACE} FROM (SELECT ${LINK_COLUMNS} FROM links ${where}) lk
   JOIN workspaces w ON w.id = lk.workspace_id ORDER BY lk.id DESC`;

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export function consoleStore({ read }: ScriptRunner): ConsoleStore {
  /** Rows of `table` made per UTC day from `fromDay` on (sign-ups, new links). */
  const createdPerDay = async (table: 'users' | 'links', fromDay: number) =>
    (
      await read(
        rowsOf(
          `SELECT created_at / ${DAY_MS} AS day, count(*) AS n FROM ${table} WHERE created_at >= ?
           GROUP BY created_at / ${DAY_MS} ORDER BY day`,
          fromDay * DAY_MS,
        ),
      )
    ).map(toDayCount);
  return {
    async consoleTotals(today) {
      const [row] = await read(
        rowsOf(
          `SELECT (SELECT count(*) FROM users) AS users,
             (SELECT count(*) FROM workspaces) AS workspaces,
             (SELECT coalesce(sum(link_count), 0) FROM workspaces) AS links,
             (SELECT coalesce(sum(CASE WHEN day = ? THEN clicks ELSE 0 END), 0) FROM workspace_daily_clicks WHERE day >= ? AND day <= ?) AS today,
             (SELECT coalesce(sum(CASE WHEN day >= ? THEN clicks ELSE 0 END), 0) FROM workspace_daily_clicks WHERE day >= ? AND day <= ?) AS week,
             (SELECT coalesce(sum(clicks), 0) FROM workspace_daily_clicks WHERE day >= ? AND day <= ?) AS month`,
          today,
          today,
          today,
          today - 6,
          today - 6,
          today,
          today - 29,
          today,
        ),
      );
      return {
        users: Number(row?.users ?? 0),
        workspaces: Number(row?.workspaces ?? 0),
        links: Number(row?.links ?? 0),
        clicksToday: Number(row?.today ?? 0),
        clicks7Days: Number(row?.week ?? 0),
        clicks30Days: Number(row?.month ?? 0),
      };
    },
    signupsPerDay: (fromDay) => createdPerDay('users', fromDay),
    newLinksPerDay: (fromDay) => createdPerDay('links', fromDay),
    newestLinks: async (limit) =>
      (await read(rowsOf(withWorkspace('WHERE deleted_at IS NULL ORDER BY id DESC LIMIT ?'), limit))).map(
        toConsoleLink,
      ),
    async consoleLinks(ids) {
      if (ids.length === 0) return [];
      const rows = await read(
        rowsOf(withWorkspace(`WHERE id IN (${placeholders(ids.length)}) AND deleted_at IS NULL`), ...ids),
      );
      return rows.map(toConsoleLink);
    },
    async topWorkspacesByClicks(fromDay, limit) {
      const rows = await read(
        rowsOf(
          `SELECT ${WORKSPACE}, t.clicks FROM (
             SELECT workspace_id, sum(clicks) AS clicks FROM workspace_daily_clicks WHERE day >= ?
             GROUP BY workspace_id ORDER BY sum(clicks) DESC, workspace_id LIMIT ?
           ) t JOIN workspaces w ON w.id = t.workspace_id ORDER BY t.clicks DESC, w.id`,
          fromDay,
          limit,
        ),
      );
      return rows.map((row) => ({ workspace: toWorkspace(row), clicks: Number(row.clicks) }));
    },
    // A range of each workspace's key: its days are scattered over the table's pages on PostgreSQL,
    // so every day kept would cost a page read each (about 100 ms for 100 workspaces of a year).
    async workspaceFigures(ids, fromDay) {
      const figures = new Map<number, WorkspaceFigures>();
      if (ids.length === 0) return figures;
      const rows = await read(
        rowsOf(
          `SELECT w.id, w.link_count,
             (SELECT coalesce(sum(d.clicks), 0) FROM workspace_daily_clicks d
               WHERE d.workspace_id = w.id AND d.day >= ?) AS clicks
           FROM workspaces w WHERE w.id IN (${placeholders(ids.length)})`,
          fromDay,
          ...ids,
        ),
      );
      for (const row of rows)
        figures.set(Number(row.id), { links: Number(row.link_count), clicks: Number(row.clicks) });
      return figures;
    },
  };
}
