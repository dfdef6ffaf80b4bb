/** GroupStore on either dialect: an account's groups, by numeric ID or API identifier. */
import type { Group, GroupRef } from '../../core/entities.ts';
import type { CreateGroupResult, GroupStore, RenameGroupResult } from '../../core/ports/store.ts';
import { GROUP_COLUMNS, mapFirst, toGroup } from './rows.ts';
import { q, type Script, type ScriptRunner } from './script.ts';
import { UNIQUE, violates } from './unique.ts';

const GROUPS = `SELECT ${GROUP_COLUMNS} FROM groups`;

function* groupOf(workspaceId: number, ref: GroupRef): Script<Group | undefined> {
  const rows =
    'id' in ref
      ? yield q(`${GROUPS} WHERE workspace_id = ? AND id = ?`, workspaceId, ref.id)
      : yield q(`${GROUPS} WHERE workspace_id = ? AND api_id = ?`, workspaceId, ref.apiId);
  return mapFirst(rows, toGroup);
}

function* listGroups(workspaceId: number): Script<Group[]> {
  return (yield q(`${GROUPS} WHERE workspace_id = ? ORDER BY id`, workspaceId)).map(toGroup);
}

// The API identifier taken by another group of the account inserts nothing, so the refusal needs
// no caught error (which would abort a PostgreSQL transaction).
function* createGroup(workspaceId: number, name: string, apiId: string): Script<CreateGroupResult> {
  const rows = yield q(
    `INSERT INTO groups (workspace_id, name, api_id, created_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (workspace_id, api_id) DO NOTHING RETURNING ${GROUP_COLUMNS}`,
    workspaceId,
    name,
    apiId,
    Date.now(),
  );
  const group = mapFirst(rows, toGroup);
  return group ? { kind: 'created', group } : { kind: 'api-id-taken' };
}

function* renameGroup(
  workspaceId: number,
  groupId: number,
  name: string,
  apiId: string,
): Script<RenameGroupResult> {
  const rows = yield q(
    'UPDATE groups SET name = ?, api_id = ? WHERE workspace_id = ? AND id = ? RETURNING id',
    name,
    apiId,
    workspaceId,
    groupId,
  );
  return rows.length === 0 ? 'not-found' : 'renamed';
}

/**
 * Ungrouping is explicit rather than left to ON DELETE SET NULL, so it holds on any engine. The
 * DELETE decides the answer: of two deletes at once (PostgreSQL), the second waits on the row the
 * first removes and finds nothing; a rename waiting on it finds nothing either.
 */
function* deleteGroup(workspaceId: number, groupId: number): Script<boolean> {
  yield q(
    'UPDATE links SET group_id = NULL WHERE group_id = (SELECT id FROM groups WHERE workspace_id = ? AND id = ?)',
    workspaceId,
    groupId,
  );
  const deleted = yield q(
    'DELETE FROM groups WHERE workspace_id = ? AND id = ? RETURNING id',
    workspaceId,
    groupId,
  );
  return deleted.length > 0;
}

export function groupStore({ read, write }: ScriptRunner): GroupStore {
  return {
    findGroupOfWorkspace: (workspaceId, ref) => read(groupOf(workspaceId, ref)),
    createGroup: (workspaceId, name, apiId) => write(createGroup(workspaceId, name, apiId)),
    listGroups: (workspaceId) => read(listGroups(workspaceId)),

    async renameGroup(workspaceId, groupId, name, apiId): Promise<RenameGroupResult> {
      // One statement on its own, outside any transaction: the taken identifier is told by the
      // error it raises, which would abort a transaction around it on PostgreSQL.
      try {
        return await read(renameGroup(workspaceId, groupId, name, apiId));
      } catch (error) {
        if (violates(error, UNIQUE.groupApiId)) return 'api-id-taken';
        throw error;
      }
    },

    deleteGroup: (workspaceId, groupId) => write(deleteGroup(workspaceId, groupId)),
  };
}
