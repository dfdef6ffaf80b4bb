/** Blocklists on either dialect (adapters/sql/script.ts): a big import is written in chunks, then swapped in. */
import type { HostRule } from '../../core/blocklist-format.ts';
import type { Blocklist } from '../../core/moderation.ts';
import type { BlocklistStore, StoredRule } from '../../core/ports/abuse-store.ts';
import { mapFirst, type Row, truthy } from './rows.ts';
import { type Param, q, rowsOf, type Script, type ScriptRunner } from './script.ts';

const LIST_COLUMNS = 'id, name, source, rule_count, skipped, created_at, updated_at';
/** Rules per INSERT statement (3 parameters each: PostgreSQL allows 65,535) and per transaction. */
const ROWS_PER_INSERT = 1000;
const ROWS_PER_CHUNK = 20_000;

function toBlocklist(row: Row): Blocklist {
  return {
    id: Number(row.id),
    name: row.name as string,
    source: (row.source as string | null) ?? null,
    ruleCount: Number(row.rule_count),
    skipped: Number(row.skipped),
    createdAt: new Date(Number(row.created_at)),
    updatedAt: new Date(Number(row.updated_at)),
  };
}

function* insertRules(listId: number, rules: readonly HostRule[]): Script<void> {
  for (let at = 0; at < rules.length; at += ROWS_PER_INSERT) {
    const part = rules.slice(at, at + ROWS_PER_INSERT);
    const params: Param[] = [];
    for (const rule of part) params.push(listId, rule.host, rule.subdomains ? 1 : 0);
    const values = part.map(() => '(?, ?, ? = 1)').join(', ');
    yield q(`INSERT INTO blocklist_rules (list_id, host, subdomains) VALUES ${values}`, ...params);
  }
}

const bump = () => q('UPDATE abuse_state SET rules_version = rules_version + 1 WHERE id = 1');

/** The live list of that name, created empty when there is none. */
function* liveList(name: string, source: string | null, now: number): Script<Blocklist> {
  const found = mapFirst(
    yield q(`SELECT ${LIST_COLUMNS} FROM blocklists WHERE name = ? AND live`, name),
    toBlocklist,
  );
  if (found) return found;
  const rows = yield q(
    `INSERT INTO blocklists (name, source, created_at, updated_at, live) VALUES (?, ?, ?, ?, true)
     RETURNING ${LIST_COLUMNS}`,
    name,
    source,
    now,
    now,
  );
  const made = mapFirst(rows, toBlocklist);
  if (!made) throw new Error('a blocklist insert returned no row');
  return made;
}

/** Deletes a retired generation's rules a chunk per transaction, then its row. */
async function dropGeneration(write: ScriptRunner['write'], id: number): Promise<void> {
  for (;;) {
    const gone = await write(
      rowsOf(
        'DELETE FROM blocklist_rules WHERE id IN (SELECT id FROM blocklist_rules WHERE list_id = ? LIMIT ?) RETURNING id',
        id,
        ROWS_PER_CHUNK,
      ),
    );
    if (gone.length === 0) break;
  }
  await write(rowsOf('DELETE FROM blocklists WHERE id = ?', id));
}

function* swapIn(name: string, next: number, count: number, skipped: number, now: number): Script<number[]> {
  const old = (yield q('SELECT id FROM blocklists WHERE name = ? AND live', name)).map((row) =>
    Number(row.id),
  );
  yield q('UPDATE blocklists SET live = false WHERE name = ? AND live', name);
  yield q(
    'UPDATE blocklists SET live = true, rule_count = ?, skipped = ?, updated_at = ? WHERE id = ?',
    count,
    skipped,
    now,
    next,
  );
  yield bump();
  return old;
}

async function replaceBlocklist(
  { write }: ScriptRunner,
  name: string,
  source: string | null,
  rules: readonly HostRule[],
  skipped: number,
): Promise<Blocklist> {
  // A generation an earlier import left behind (it stopped half-way) goes first.
  for (const row of await write(rowsOf('SELECT id FROM blocklists WHERE name = ? AND NOT live', name)))
    await dropGeneration(write, Number(row.id));
  const now = Date.now();
  const created = await write(
    rowsOf(
      `INSERT INTO blocklists (name, source, created_at, updated_at, live) VALUES (?, ?, ?, ?, false) RETURNING id`,
      name,
      source,
      now,
      now,
    ),
  );
  const next = Number(created[0]?.id);
  const unique = dedupe(rules);
  for (let at = 0; at < unique.length; at += ROWS_PER_CHUNK)
    await write(insertRules(next, unique.slice(at, at + ROWS_PER_CHUNK)));
  const retired = await write(swapIn(name, next, unique.length, skipped, Date.now()));
  for (const id of retired) await dropGeneration(write, id);
  const list = mapFirst(
    await write(rowsOf(`SELECT ${LIST_COLUMNS} FROM blocklists WHERE id = ?`, next)),
    toBlocklist,
  );
  if (!list) throw new Error('an imported blocklist vanished');
  return list;
}

/** One row per host and kind. */
function dedupe(rules: readonly HostRule[]): HostRule[] {
  const seen = new Set<string>();
  return rules.filter((rule) => {
    const key = `${rule.subdomains ? '*' : '='}${rule.host}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function* addBlockRule(list: string, rule: HostRule, now: number): Script<boolean> {
  const target = yield* liveList(list, null, now);
  const held = yield q(
    'SELECT 1 FROM blocklist_rules WHERE list_id = ? AND host = ? AND subdomains = (? = 1)',
    target.id,
    rule.host,
    rule.subdomains ? 1 : 0,
  );
  if (held.length > 0) return false;
  yield* insertRules(target.id, [rule]);
  yield q('UPDATE blocklists SET rule_count = rule_count + 1, updated_at = ? WHERE id = ?', now, target.id);
  yield bump();
  return true;
}

function* removeBlockRule(host: string, now: number): Script<number> {
  const rows = yield q(
    `DELETE FROM blocklist_rules WHERE host = ? AND list_id IN (SELECT id FROM blocklists WHERE live)
     RETURNING list_id`,
    host,
  );
  for (const row of rows) {
    yield q(
      'UPDATE blocklists SET rule_count = rule_count - 1, updated_at = ? WHERE id = ?',
      now,
      Number(row.list_id),
    );
  }
  if (rows.length > 0) yield bump();
  return rows.length;
}

export function blocklistStore(runner: ScriptRunner): BlocklistStore {
  const { read, write } = runner;
  return {
    listBlocklists: async () =>
      (await read(rowsOf(`SELECT ${LIST_COLUMNS} FROM blocklists WHERE live ORDER BY name`))).map(
        toBlocklist,
      ),
    replaceBlocklist: (name, source, rules, skipped) =>
      replaceBlocklist(runner, name, source, rules, skipped),
    addBlockRule: (list, rule) => write(addBlockRule(list, rule, Date.now())),
    removeBlockRule: (host) => write(removeBlockRule(host, Date.now())),
    async deleteBlocklist(name) {
      const ids = (await write(rowsOf('SELECT id FROM blocklists WHERE name = ?', name))).map((row) =>
        Number(row.id),
      );
      if (ids.length === 0) return false;
      await write(
        (function* () {
          yield q('UPDATE blocklists SET live = false WHERE name = ?', name);
          yield bump();
        })(),
      );
      for (const id of ids) await dropGeneration(write, id);
      return true;
    },
    async abuseVersions() {
      const [row] = await read(
        rowsOf('SELECT rules_version, takedowns_version FROM abuse_state WHERE id = 1'),
      );
      return { rules: Number(row?.rules_version ?? 0), takedowns: Number(row?.takedowns_version ?? 0) };
    },
    blockRulesAfter: async (id, limit): Promise<StoredRule[]> =>
      (
        await read(
          rowsOf(
            `SELECT r.id, r.host, r.subdomains FROM blocklist_rules r JOIN blocklists b ON b.id = r.list_id
             WHERE b.live AND r.id > ? ORDER BY r.id LIMIT ?`,
            id,
            limit,
          ),
        )
      ).map((row) => ({ id: Number(row.id), host: row.host as string, subdomains: truthy(row.subdomains) })),
    listsWithHost: async (host) =>
      (
        await read(
          rowsOf(
            `SELECT DISTINCT b.name FROM blocklist_rules r JOIN blocklists b ON b.id = r.list_id
             WHERE b.live AND r.host = ? ORDER BY b.name`,
            host,
          ),
        )
      ).map((row) => row.name as string),
  };
}
