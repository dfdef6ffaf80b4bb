import { type PairedBench, pairedLinks, pairedNote } from './paired-links.ts';
import { SMALL } from './settings.ts';

/**
 * A/B tests (docs/api.md §20.5, docs/adr/046): the redirect's CPU per request for links with an
 * A/B test (two variants, 50/50: the day's visitor hashed per request) beside plain links of the
 * same store and server, each after the bare server under the same load. Links without a test must
 * cost what they did; compare the plain line with the `domains` phase's one-domain line or an
 * older checkout (BENCH_SNIP_DIR).
 */
export async function abPhase(bench: PairedBench): Promise<string[]> {
  const runs = await pairedLinks(bench, {
    name: 'ab',
    host: 'd0000.bench.example',
    seeded: `${SMALL} plain links and ${SMALL} with an A/B test`,
    guards: (i) => ({
      test: {
        variants: [
          { url: `https://a.example/${i}`, weight: 50 },
          { url: `https://b.example/${i}`, weight: 50 },
        ],
        endsAt: null,
        startedAt: new Date(),
      },
    }),
    targets: {
      plain: `snip redirect, ${SMALL} links without a test, wrk -t1 -c32`,
      featured: `snip redirect, ${SMALL} links with an A/B test, wrk -t1 -c32`,
    },
  });
  return [pairedNote('A/B tests', runs, ['a link with a test', 'without'])];
}
