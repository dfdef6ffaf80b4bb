import type { LinkStore } from '../../core/ports/store.ts';
import type { VisitLimits } from '../../core/ports/visit-limits.ts';

/** Visit limits kept by the store's conditional update: exact however many instances share it. */
export function storeVisitLimits(store: Pick<LinkStore, 'takeVisit' | 'visitsTaken'>): VisitLimits {
  return {
    take: (link) => store.takeVisit(link.id),
    exhausted: async (link) => (await store.visitsTaken(link.id)) >= link.maxClicks,
  };
}
