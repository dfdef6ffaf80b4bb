import type { Link } from '../../core/entities.ts';
import type { CheckResult } from '../../core/link-health.ts';
import type { Inspector } from '../../core/ports/inspector.ts';
import type { SocialMatcher } from '../../core/social.ts';
import { parseTargetUrl, stripTrailingDot } from '../../core/target-url.ts';
import type { HostPacer } from './host-pacer.ts';

/**
 * One check of a link's targets (docs/api.md §21) with what a create checks now: its url, then each
 * rule's, then each variant's, each judged as a create would (310 for a social network, 316 for a
 * blocklist, then the SSRF-safe inspection: 306-311); the first that fails decides. Each request
 * waits for its host's turn.
 */

export interface CheckDeps {
  inspector: Inspector;
  isSocial: SocialMatcher;
  isBlocked: (host: string) => boolean;
  pacer: Pick<HostPacer, 'run'>;
}

/** The link's targets, each once, in the order a create checks them. */
export function targetsOf(link: Link): string[] {
  const urls = [
    link.longUrl,
    ...link.rules.map((rule) => rule.url),
    ...(link.test?.variants ?? []).map((v) => v.url),
  ];
  return [...new Set(urls)];
}

async function checkTarget(deps: CheckDeps, url: string): Promise<CheckResult> {
  const target = parseTargetUrl(url);
  // A URL stored before today's rules: a create would refuse it as unreachable.
  if (!target) return { code: '306', status: null, target: url };
  const host = stripTrailingDot(target.parsed.hostname);
  if (deps.isSocial(host)) return { code: '310', status: null, target: url };
  if (deps.isBlocked(host)) return { code: '316', status: null, target: url };
  const outcome = await deps.pacer.run(host, () => deps.inspector.inspect(target.parsed));
  if (outcome.ok) return { code: null, status: outcome.status, target: url };
  return { code: outcome.code, status: outcome.status ?? null, target: url };
}

export async function checkLink(deps: CheckDeps, link: Link): Promise<CheckResult> {
  let first: CheckResult | undefined;
  for (const url of targetsOf(link)) {
    const result = await checkTarget(deps, url);
    if (result.code !== null) return result;
    first ??= result;
  }
  return first ?? { code: null, status: null };
}
