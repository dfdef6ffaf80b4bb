import type { Scope } from '../../../core/scopes.ts';
import type { YourlsMembers } from './yourls-encode.ts';
import type { YourlsCall } from './yourls-links.ts';
import { expandAction, urlStatsAction } from './yourls-lookups.ts';
import type { YourlsAnswer } from './yourls-output.ts';
import { shorturlAction } from './yourls-shorturl.ts';
import { dbStatsAction, statsAction } from './yourls-stats.ts';

/**
 * The actions of yourls-api.php and the scope each needs of a Snip key. Reading a link's target
 * (expand, url-stats, the list of stats) is links:read; the totals alone are stats:read; the
 * version only needs a caller YOURLS would let in, as it asks every action for one.
 */

export interface YourlsAction {
  scope: Scope | undefined;
  run(call: YourlsCall): Promise<YourlsAnswer>;
}

/** action=version: Snip's version stands for YOURLS's (and, with db=1, for its database's). */
async function versionAction(call: YourlsCall): Promise<YourlsAnswer> {
  const { version } = call.deps;
  const db = call.params.get('db');
  const members: YourlsMembers = { version };
  if (db !== undefined && Number(db.trim()) === 1) members.db_version = version;
  return { members, simple: version };
}

export const YOURLS_ACTIONS: Readonly<Record<string, YourlsAction>> = {
  shorturl: { scope: 'links:create', run: shorturlAction },
  expand: { scope: 'links:read', run: expandAction },
  'url-stats': { scope: 'links:read', run: urlStatsAction },
  stats: { scope: 'links:read', run: statsAction },
  'db-stats': { scope: 'stats:read', run: dbStatsAction },
  version: { scope: undefined, run: versionAction },
};

export function actionNamed(name: string | undefined): YourlsAction | undefined {
  return name !== undefined && Object.hasOwn(YOURLS_ACTIONS, name) ? YOURLS_ACTIONS[name] : undefined;
}

const UNKNOWN = 'Unknown or missing "action" parameter';

export const UNKNOWN_ACTION: YourlsAnswer = {
  members: { errorCode: '400', message: UNKNOWN },
  simple: UNKNOWN,
};
