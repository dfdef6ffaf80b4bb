import { shortUrl } from '../../../core/short-url.ts';
import { findLink, linkRow, type YourlsCall } from './yourls-links.ts';
import type { YourlsAnswer } from './yourls-output.ts';

/** action=expand and action=url-stats: one link of the workspace, by keyword or short URL. */

const NOT_FOUND = 'Error: short URL not found';
/** What YOURLS's stats answers say in `format=simple`. */
export const STATS_NEED_FORMAT = 'Need either XML or JSON format for stats';

export async function expandAction(call: YourlsCall): Promise<YourlsAnswer> {
  const { keyword, link } = await findLink(call, call.params.get('shorturl') ?? '');
  if (!link) {
    return { members: { keyword, message: NOT_FOUND, errorCode: '404' }, simple: 'not found' };
  }
  const members = {
    keyword: link.code,
    shorturl: shortUrl(call.deps.origins, link),
    longurl: link.longUrl,
    title: link.title,
    message: 'success',
    statusCode: '200',
  };
  return { members, simple: link.longUrl };
}

export async function urlStatsAction(call: YourlsCall): Promise<YourlsAnswer> {
  const { link } = await findLink(call, call.params.get('shorturl') ?? '');
  if (!link) return { members: { statusCode: '404', message: NOT_FOUND }, simple: STATS_NEED_FORMAT };
  return {
    members: { statusCode: '200', message: 'success', link: linkRow(call.deps, link) },
    simple: STATS_NEED_FORMAT,
  };
}
