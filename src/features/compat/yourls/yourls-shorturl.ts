import { Refusal } from '../../../core/errors.ts';
import { LINK_CODE_PATTERN } from '../../../core/short-code.ts';
import { shortUrl } from '../../../core/short-url.ts';
import { targetOrRefuse } from '../../../core/target-checks.ts';
import type { LinkResource } from '../../links/index.ts';
import type { YourlsMembers } from './yourls-encode.ts';
import { dateText, NO_ADDRESS, trimLong, type YourlsCall } from './yourls-links.ts';
import type { YourlsAnswer } from './yourls-output.ts';
import { isEmpty } from './yourls-params.ts';
import { createFailureOf, failedAdd, failedAddHead } from './yourls-refusals.ts';

/**
 * action=shorturl: `url`, `keyword`, `title` become a Snip link through every check of a create,
 * answered as yourls_add_new_link answers. A keyword is a Snip slug as given (YOURLS would strip
 * the characters it does not allow; Snip refuses the slug instead). A title's runs of whitespace
 * become one space, as YOURLS's sanitising does; an empty title lets Snip fetch the page's.
 */

const MALFORMED_URL = 'Missing or malformed URL';

function titleOf(title: string | undefined): string | undefined {
  if (title === undefined || isEmpty(title)) return undefined;
  return title.replace(/[ \t\n\v\f\r]+/g, ' ').trim();
}

function added(link: LinkResource): YourlsAnswer {
  const members: YourlsMembers = {
    status: 'success',
    code: '',
    message: `${trimLong(link.long_url)} added to database`,
    errorCode: '',
    statusCode: '200',
    url: {
      keyword: link.short_code,
      url: link.long_url,
      title: link.title,
      date: dateText(new Date(link.created_at)),
      ip: NO_ADDRESS,
    },
    title: link.title,
    shorturl: link.short_url,
  };
  return { members, simple: link.short_url };
}

/** 305 with the link that holds the URL: YOURLS's error:url, which names that link. */
async function alreadyThere(call: YourlsCall, url: string, refusal: Refusal): Promise<YourlsAnswer> {
  const { deps, actor } = call;
  const { existingCode: code, existingDomainId: domainId } = refusal.facts;
  if (code === undefined || domainId === undefined) {
    return { members: failedAdd('error:noloop', 'URL is a short URL', 400, refusal.code) };
  }
  const link = await deps.store.findLinkOfWorkspace(actor.workspaceId, domainId, code);
  const short = shortUrl(deps.origins, { domainId, code });
  const site = short.replace(/^https?:\/\//, '');
  const message = `${trimLong(url)} already exists in database (short URL: ${site})`;
  const members: YourlsMembers = {
    ...failedAddHead('error:url', message, 400),
    url: {
      keyword: code,
      url,
      title: link?.title ?? '',
      date: link ? dateText(link.createdAt) : '',
      ip: NO_ADDRESS,
      clicks: link?.clicks ?? 0,
    },
    title: link?.title ?? '',
    shorturl: short,
    snipCode: refusal.code,
  };
  return { members, simple: short };
}

/** Which field a 300 was about: Snip checks the url, then the slug, then the title. */
function malformed(url: string, keyword: string | undefined, refusal: Refusal): YourlsMembers {
  try {
    targetOrRefuse(url);
  } catch {
    return failedAdd('error:nourl', MALFORMED_URL, 400, refusal.code);
  }
  if (keyword !== undefined && !LINK_CODE_PATTERN.test(keyword)) {
    return failedAdd('error:keyword', refusal.message, 400, refusal.code);
  }
  return failedAdd('error:title', refusal.message, 400, refusal.code);
}

function refusedAdd(url: string, keyword: string | undefined, refusal: Refusal): YourlsMembers | undefined {
  const failure = createFailureOf(refusal);
  if (!failure) return undefined;
  if (refusal.code === '300') return malformed(url, keyword, refusal);
  if (refusal.code === '302') return failedAdd(failure.code, MALFORMED_URL, failure.status, refusal.code);
  if (refusal.code === '313') {
    const message = `Short URL ${keyword ?? ''} already exists in database or is reserved`;
    return failedAdd(failure.code, message, failure.status, refusal.code);
  }
  return failedAdd(failure.code, refusal.message, failure.status, refusal.code);
}

export async function shorturlAction(call: YourlsCall): Promise<YourlsAnswer> {
  const { deps, params, actor, clientAddress } = call;
  const url = (params.get('url') ?? '').trim();
  const keywordParam = params.get('keyword');
  const keyword = keywordParam === undefined || isEmpty(keywordParam) ? undefined : keywordParam;
  try {
    const link = await deps.links.create(
      actor,
      { url, slug: keyword, title: titleOf(params.get('title')) },
      clientAddress,
    );
    return added(link);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (error.code === '305') return alreadyThere(call, url, error);
    const members = refusedAdd(url, keyword, error);
    if (!members) throw error;
    return { members, simple: '' };
  }
}
