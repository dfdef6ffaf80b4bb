import { feature } from '../../kernel/feature.ts';
import { lazyCommands, withDeps } from '../../terminal/command.ts';
import { IMPORT_FLAGS, IMPORT_USAGE } from './import-usage.ts';

/**
 * Bringing links from elsewhere (docs/api.md §8.4): `snip link import` reads Snip's CSV, Shlink's,
 * YOURLS' and Kutt's exports, and creates every row through the checks of the API.
 */
export const importsFeature = feature({
  name: 'imports',
  ports: ['accounts', 'groups', 'links'],
  cli: {
    flags: IMPORT_FLAGS,
    commands: lazyCommands(IMPORT_USAGE, async () =>
      withDeps(
        (await import('./import-command.ts')).IMPORT_COMMANDS,
        (await import('./import-deps.ts')).importCliDeps,
      ),
    ),
  },
});
