/**
 * Private visit analytics (docs/api.md §9): what a redirect records (collect/: the click buffer, the
 * visit log, the facts of each visit, visitor ids, retention), the stats read back through
 * /api/v1, the stats pages with their CSV, and `snip link stats`.
 */
export { statsApiRoutes } from './api/stats-routes.ts';
export { STATS_SCHEMAS } from './api/stats-schemas.ts';
export { STATS_COMMANDS, STATS_FLAGS } from './cli/stats-command.ts';
export { ClickBuffer } from './collect/click-buffer.ts';
export { type ClickKind, clickKind } from './collect/click-kind.ts';
export { visitCollection } from './collect/collection.ts';
export { visitBatchMaker } from './collect/visit-events.ts';
export {
  countryFromHeaders,
  type VisitRecorder,
  type VisitRequest,
  visitRecorder,
} from './collect/visit-recorder.ts';
export { type DeviceFacts, deviceOf } from './collect/visitor-device.ts';
export { statsPages } from './pages/stats-pages.ts';
export { visitStats } from './visit-stats.ts';
