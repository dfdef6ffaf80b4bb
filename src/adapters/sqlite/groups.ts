/** GroupStore on SQLite: an account's groups, by numeric ID or API identifier. */
import type { GroupRef } from '../../core/entities.ts';
import type { GroupStore } from '../../core/ports/store.ts';
import { GROUP_COLUMNS, mapRow, toGroup } from '../sql/rows.ts';
import { type Connection, isUniqueViolation } from './connection.ts';

const GROUP_BY_ID = `SELECT ${GROUP_COLUMNS} FROM groups WHERE account_id = ? AND id = ?`;
const GROUP_BY_API_ID = `SELECT ${GROUP_COLUMNS} FROM groups WHERE account_id = ? AND api_id = ?`;
const INSERT_GROUP = `INSERT INTO groups (account_id, name, api_id, created_at) VALUES (?, ?, ?, ?)
  RETURNING ${GROUP_COLUMNS}`;
const GROUPS_OF = `SELECT ${GROUP_COLUMNS} FROM groups WHERE account_id = ? ORDER BY id`;
const RENAME_GROUP = 'UPDATE groups SET name = ?, api_id = ? WHERE id = ? AND account_id = ?';
// Ungrouping is explicit rather than left to ON DELETE SET NULL, so it holds on any engine.
const GROUP_EXISTS = 'SELECT 1 FROM groups WHERE id = ? AND account_id = ?';
const UNGROUP_LINKS = 'UPDATE links SET group_id = NULL WHERE group_id = ?';
const DELETE_GROUP = 'DELETE FROM groups WHERE id = ? AND account_id = ?';
const API_ID_UNIQUE = ['groups.account_id', 'groups.api_id'];

export function sqliteGroupStore(conn: Connection): GroupStore {
  return {
    async findGroupOfWorkspace(workspaceId, ref: GroupRef) {
      const row =
        'id' in ref
          ? conn.stmt(GROUP_BY_ID).get(workspaceId, ref.id)
          : conn.stmt(GROUP_BY_API_ID).get(workspaceId, ref.apiId);
      return mapRow(row, toGroup);
    },

    async createGroup(workspaceId, name, apiId) {
      try {
        const row = conn.stmt(INSERT_GROUP).get(workspaceId, name, apiId, Date.now());
        if (!row) throw new Error('INSERT … RETURNING gave no row');
        return { kind: 'created', group: toGroup(row) };
      } catch (error) {
        if (isUniqueViolation(error, ...API_ID_UNIQUE)) return { kind: 'api-id-taken' };
        throw error;
      }
    },

    async listGroups(workspaceId) {
      return conn.stmt(GROUPS_OF).all(workspaceId).map(toGroup);
    },

    async renameGroup(workspaceId, groupId, name, apiId) {
      try {
        const changed = conn.stmt(RENAME_GROUP).run(name, apiId, groupId, workspaceId).changes;
        return changed === 0 ? 'not-found' : 'renamed';
      } catch (error) {
        if (isUniqueViolation(error, ...API_ID_UNIQUE)) return 'api-id-taken';
        throw error;
      }
    },

    async deleteGroup(workspaceId, groupId) {
      return conn.transaction(() => {
        if (!conn.stmt(GROUP_EXISTS).get(groupId, workspaceId)) return false;
        conn.stmt(UNGROUP_LINKS).run(groupId);
        conn.stmt(DELETE_GROUP).run(groupId, workspaceId);
        return true;
      });
    },
  };
}
