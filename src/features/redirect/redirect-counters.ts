import type { Metrics } from '../../kernel/metrics.ts';

/** The counters every redirect moves, their labels resolved once: they run on the hot path. */
export function redirectCounters(metrics: Metrics, status: number) {
  const byKind = { human: metrics.redirects.labels('human'), bot: metrics.redirects.labels('bot') };
  const labels = (answered: number) => ({
    GET: metrics.requests.labels('/:code', 'GET', String(answered)),
    HEAD: metrics.requests.labels('/:code', 'HEAD', String(answered)),
  });
  const redirected = labels(status);
  // A code on a host no links are served on is answered 404 there too.
  const missed = labels(404);
  return {
    redirected: (kind: 'human' | 'bot') => byKind[kind].inc(),
    /** A request the hot path answered: the router's request counter never sees it. */
    answeredBelowRouter: (method: string, answered: number) =>
      (answered === 404 ? missed : redirected)[method as 'GET' | 'HEAD'].inc(),
  };
}
