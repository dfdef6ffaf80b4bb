import type { FeatureHttp } from '../../kernel/feature.ts';
import { groupRoutes } from './api/group-routes.ts';
import { GROUP_SCHEMAS } from './api/group-schemas.ts';

/** /api/v1/groups (the groups card and its forms are part of the links' dashboard). */
export const groupHttp: FeatureHttp = {
  schemas: GROUP_SCHEMAS,
  async api(v1, kernel) {
    const { api } = await kernel.use('groups');
    await v1.register(groupRoutes, { api, origin: kernel.origin });
  },
};
