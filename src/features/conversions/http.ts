import type { FeatureHttp } from '../../kernel/feature.ts';
import { trackRoutes } from './api/track-routes.ts';
import { TRACK_SCHEMAS } from './api/track-schemas.ts';
import type { ClickIds } from './click-ids.ts';
import { trackingSettingsRoute } from './pages/settings-tracking.ts';
import { snipJsRoute } from './snip-js.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Click ids handed out and not yet written; tests and shutdown flush them. */
    clickIds: ClickIds;
    /** Deletes what the conversion window no longer needs; tests sweep at once. */
    conversionSweep: () => Promise<number>;
  }
}

/** /api/v1/track/lead, /api/v1/track/sale and /snip.js. */
export const conversionHttp: FeatureHttp = {
  schemas: TRACK_SCHEMAS,
  async api(v1, kernel) {
    const { track } = await kernel.use('conversions');
    await v1.register(trackRoutes, { track });
  },
  async routes(app, kernel) {
    const { clickIds, sweep } = await kernel.use('conversions');
    app.decorate('clickIds', clickIds);
    app.decorate('conversionSweep', sweep);
    await app.register(snipJsRoute, { windowDays: kernel.config.conversionWindowDays });
  },
  async pages(app, kernel) {
    const { setTracking } = await kernel.use('conversions');
    await app.register(trackingSettingsRoute, { ...kernel.session, setTracking });
  },
};
