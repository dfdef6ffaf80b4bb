import type { FastifyInstance } from 'fastify';
import { acceptEmptyJson } from '../../../http/body-parsers.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { foldListParamsOf } from '../list-params.ts';
import { domainRoutes } from './domain-routes.ts';
import { redirectRuleRoutes } from './redirect-rule-routes.ts';
import { requireShlinkKeys } from './shlink-auth.ts';
import { answerCrossOrigin } from './shlink-cors.ts';
import { answerShlinkErrors } from './shlink-errors.ts';
import { invalidData } from './shlink-problems.ts';
import { shortUrlRoutes } from './short-url-routes.ts';
import { tagRoutes } from './tag-routes.ts';
import { visitRoutes } from './visit-routes.ts';

/** Shlink's list parameters: the tags of a listing (query) and of a create or edit (form). */
const SHLINK_LISTS: ReadonlySet<string> = new Set(['tags', 'excludeTags']);

/**
 * The Shlink API on Snip (docs/api.md §15, docs/migrating/shlink.md): Shlink's REST API v3 under
 * /rest, so that Shlink's clients work with a Snip key as their API key. The routes read their
 * input themselves, field by field, so that every wrong value is Shlink's invalid-data naming it:
 * the route schemas only describe (/openapi.json), they neither validate nor serialize here.
 * Shlink's client sends Content-Type: application/json on a DELETE without a body too.
 */
export async function shlinkRoutes(app: FastifyInstance, deps: CompatDeps): Promise<void> {
  app.setValidatorCompiler(() => () => true);
  acceptEmptyJson(app);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  answerShlinkErrors(app);
  answerCrossOrigin(app);
  requireShlinkKeys(app, deps.keys);
  foldListParamsOf(app, SHLINK_LISTS, (bad) =>
    invalidData([bad.name], `Provided data is not valid: ${bad.reason}`),
  );
  domainRoutes(app, deps);
  visitRoutes(app, deps);
  redirectRuleRoutes(app, deps);
  shortUrlRoutes(app, deps);
  tagRoutes(app, deps);
}
