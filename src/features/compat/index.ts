import { feature } from '../../kernel/feature.ts';

/**
 * The APIs of other shorteners, answered by Snip (docs/api.md §15): Shlink's REST API v3 under
 * /rest, Kutt's API v2 under /api/v2, YOURLS at /yourls-api.php. Their clients work unchanged with
 * a Snip key in place of theirs; each refusal comes back in the original's own error form.
 */
export const compatFeature = feature({
  name: 'compat',
  ports: ['links', 'groups', 'tags', 'stats', 'visitLists', 'accounts', 'workspaces', 'upkeep'],
  http: async () => (await import('./http.ts')).compatHttp,
});
