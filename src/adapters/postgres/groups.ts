/** GroupStore on PostgreSQL: an account's groups, by numeric ID or API identifier. */
import type { GroupRef } from '../../core/entities.ts';
import type { GroupStore } from '../../core/ports/store.ts';
import { GROUP_COLUMNS, mapFirst, toGroup } from '../sql/rows.ts';
import { type Db, isUniqueViolation, query, transaction } from './client.ts';

const GROUP_BY_ID = `SELECT ${GROUP_COLUMNS} FROM groups WHERE account_id = $1 AND id = $2`;
const GROUP_BY_API_ID = `SELECT ${GROUP_COLUMNS} FROM groups WHERE account_id = $1 AND api_id = $2`;
const INSERT_GROUP = `INSERT INTO groups (account_id, name, api_id, created_at) VALUES ($1, $2, $3, $4)
  RETURNING ${GROUP_COLUMNS}`;
const GROUPS_OF = `SELECT ${GROUP_COLUMNS} FROM groups WHERE account_id = $1 ORDER BY id`;
const RENAME_GROUP =
  'UPDATE groups SET name = $3, api_id = $4 WHERE account_id = $1 AND id = $2 RETURNING id';
// Ungrouping is explicit rather than left to ON DELETE SET NULL, so it holds on any engine (as on
// SQLite). FOR UPDATE holds off a concurrent rename or delete of the group until this one ends.
const LOCK_GROUP = 'SELECT 1 FROM groups WHERE account_id = $1 AND id = $2 FOR UPDATE';
const UNGROUP_LINKS = 'UPDATE links SET group_id = NULL WHERE group_id = $1';
const DELETE_GROUP = 'DELETE FROM groups WHERE account_id = $1 AND id = $2';
const API_ID_UNIQUE = 'groups_account_api_id_unique';

export function postgresGroupStore(db: Db): GroupStore {
  return {
    async findGroupOfWorkspace(workspaceId, ref: GroupRef) {
      const rows =
        'id' in ref
          ? await query(db, GROUP_BY_ID, [workspaceId, ref.id])
          : await query(db, GROUP_BY_API_ID, [workspaceId, ref.apiId]);
      return mapFirst(rows, toGroup);
    },

    async createGroup(workspaceId, name, apiId) {
      try {
        const group = mapFirst(
          await query(db, INSERT_GROUP, [workspaceId, name, apiId, Date.now()]),
          toGroup,
        );
        if (!group) throw new Error('INSERT … RETURNING gave no row');
        return { kind: 'created', group };
      } catch (error) {
        if (isUniqueViolation(error, API_ID_UNIQUE)) return { kind: 'api-id-taken' };
        throw error;
      }
    },

    async listGroups(workspaceId) {
      return (await query(db, GROUPS_OF, [workspaceId])).map(toGroup);
    },

    async renameGroup(workspaceId, groupId, name, apiId) {
      try {
        const rows = await query(db, RENAME_GROUP, [workspaceId, groupId, name, apiId]);
        return rows.length === 0 ? 'not-found' : 'renamed';
      } catch (error) {
        if (isUniqueViolation(error, API_ID_UNIQUE)) return 'api-id-taken';
        throw error;
      }
    },

    async deleteGroup(workspaceId, groupId) {
      return transaction(db, async (tx) => {
        if ((await query(tx, LOCK_GROUP, [workspaceId, groupId])).length === 0) return false;
        await query(tx, UNGROUP_LINKS, [groupId]);
        await query(tx, DELETE_GROUP, [workspaceId, groupId]);
        return true;
      });
    },
  };
}
