import { type PairedBench, pairedLinks, pairedNote } from './paired-links.ts';
import { SMALL } from './settings.ts';

/**
 * Conversions (docs/api.md §20): the redirect's CPU per browser click of a tracked link (a click id
 * drawn, appended and buffered, then written in batches) beside an untracked link of the same store
 * and server, each as a ratio to the bare server in the same run.
 */
export async function conversionsPhase(bench: PairedBench): Promise<string[]> {
  const runs = await pairedLinks(bench, {
    name: 'conversions',
    host: 'cv000.bench.example',
    seeded: `${SMALL} untracked and ${SMALL} tracked links`,
    guards: () => ({ trackConversions: true }),
    targets: {
      plain: 'snip redirect, untracked links, browser clicks, wrk -t1 -c32',
      featured: 'snip redirect, tracked links (snip_id per click), browser clicks, wrk -t1 -c32',
    },
  });
  return [pairedNote('conversions', runs, ["a tracked link's click", 'an untracked one'])];
}
