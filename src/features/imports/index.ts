/**
 * Bringing links from elsewhere (docs/api.md §8.4): `snip link import` reads Snip's CSV, Shlink's,
 * YOURLS' and Kutt's exports, and creates every row through the checks of the API.
 */
export { IMPORT_COMMANDS, IMPORT_FLAGS, type ImportCliDeps } from './import-command.ts';
export { readImportFile } from './import-formats.ts';
export { importLinks } from './import-links.ts';
