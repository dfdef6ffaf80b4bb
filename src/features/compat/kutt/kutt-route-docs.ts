import { KUTT_ANSWERS, KUTT_REQUESTS, kuttDoc } from './kutt-schemas.ts';

/**
 * Each route of the Kutt API as /openapi.json describes it (docs/migrating/kutt.md). The schemas
 * only describe: `attachValidation` lets every request through to the route, which reads its
 * fields as Kutt does and refuses a wrong one in Kutt's words.
 */

const KEY_ERRORS = [400, 401, 403, 429, 503];
const SCOPE_NOTE = (scope: string) => ` Needs the \`${scope}\` scope.`;

export const KUTT_ROUTES = {
  health: {
    attachValidation: true,
    schema: kuttDoc({
      operationId: 'kuttHealth',
      summary: 'Kutt: health',
      description: 'OK as text while Snip and its store answer; 503 otherwise. No key needed.',
      ok: { 200: KUTT_ANSWERS.health },
      errors: [400, 503],
      keyed: false,
    }),
  },
  list: {
    attachValidation: true,
    schema: kuttDoc(
      {
        operationId: 'kuttListLinks',
        summary: 'Kutt: list links',
        description:
          "The workspace's live links, newest first, `skip` then `limit` of them (10 by default, at most " +
          '50), with `search` those whose target, title or code contains it. A `limit` or `skip` that is ' +
          `not a number reads as the default, as on Kutt; a negative one is 400.${SCOPE_NOTE('links:read')}`,
        ok: { 200: KUTT_ANSWERS.list },
        errors: KEY_ERRORS,
      },
      { querystring: KUTT_REQUESTS.ListQuery },
    ),
  },
  create: {
    attachValidation: true,
    schema: kuttDoc(
      {
        operationId: 'kuttCreateLink',
        summary: 'Kutt: create a link',
        description:
          'Shortens `target` with every check of Snip: `customurl` is the code, `description` the ' +
          'title, `expire_in` a duration from now, `domain` a host of the workspace. Snip keeps one ' +
          'live link per target and domain: with `reuse` true the one already made is answered (200); ' +
          `without, the create is refused (400) naming it.${SCOPE_NOTE('links:create')}`,
        ok: {
          201: KUTT_ANSWERS.link('The new link.'),
          200: KUTT_ANSWERS.link('The link already made (reuse).'),
        },
        errors: KEY_ERRORS,
      },
      { body: KUTT_REQUESTS.LinkBody },
    ),
  },
  edit: {
    attachValidation: true,
    schema: kuttDoc(
      {
        operationId: 'kuttEditLink',
        summary: 'Kutt: edit a link',
        description:
          'Changes `target`, `description`, `expire_in` (from now) and `password` ("" removes it); an ' +
          'empty field or one equal to the current value changes nothing, and at least one must change. ' +
          `\`address\` must stay the code: Snip never changes it.${SCOPE_NOTE('links:write')}`,
        ok: { 200: KUTT_ANSWERS.link('The link as it is now.') },
        errors: [...KEY_ERRORS, 404],
        params: true,
      },
      { body: KUTT_REQUESTS.LinkBody },
    ),
  },
  remove: {
    attachValidation: true,
    schema: kuttDoc({
      operationId: 'kuttDeleteLink',
      summary: 'Kutt: delete a link',
      description: `Deletes the link; its code is never issued again.${SCOPE_NOTE('links:write')}`,
      ok: { 200: KUTT_ANSWERS.message('Deleted.') },
      errors: [...KEY_ERRORS, 404],
      params: true,
    }),
  },
  stats: {
    attachValidation: true,
    schema: kuttDoc({
      operationId: 'kuttLinkStats',
      summary: 'Kutt: link stats',
      description:
        'The link with its human visits of the last 24 hours, 7 days, 30 days (UTC) and 12 calendar ' +
        `months, and their browsers, systems, countries and referrers in Kutt's names.${SCOPE_NOTE('stats:read')}`,
      ok: { 200: KUTT_ANSWERS.stats },
      errors: [...KEY_ERRORS, 404],
      params: true,
    }),
  },
  statsByDelete: {
    attachValidation: true,
    schema: kuttDoc({
      operationId: 'kuttLinkStatsByDelete',
      summary: 'Kutt: link stats (as the kutt package asks)',
      description: `The same as GET: the kutt npm package sends its stats request as DELETE. Nothing is deleted.${SCOPE_NOTE('stats:read')}`,
      ok: { 200: KUTT_ANSWERS.stats },
      errors: [...KEY_ERRORS, 404],
      params: true,
    }),
  },
  user: {
    attachValidation: true,
    schema: kuttDoc({
      operationId: 'kuttUser',
      summary: 'Kutt: user',
      description: "The key as sent, the workspace's name and the domains its links may go on. Any key.",
      ok: { 200: KUTT_ANSWERS.user },
      errors: KEY_ERRORS,
    }),
  },
  addDomain: {
    attachValidation: true,
    schema: kuttDoc(
      {
        operationId: 'kuttAddDomain',
        summary: 'Kutt: add a domain',
        description:
          'Answers a domain the workspace already has; any other is refused (400): domains are added ' +
          `in Snip, where their DNS record is checked.${SCOPE_NOTE('domains:write')}`,
        ok: { 200: KUTT_ANSWERS.domain },
        errors: KEY_ERRORS,
      },
      { body: KUTT_REQUESTS.DomainBody },
    ),
  },
  removeDomain: {
    attachValidation: true,
    schema: kuttDoc({
      operationId: 'kuttRemoveDomain',
      summary: 'Kutt: remove a domain',
      description: `Refused (400): domains are removed in Snip.${SCOPE_NOTE('domains:write')}`,
      ok: { 200: KUTT_ANSWERS.message('Never answered: see the description.') },
      errors: KEY_ERRORS,
      params: true,
    }),
  },
};
