/**
 * A link's visit limit (docs/api.md §8.2), exact across instances: Redis when configured, the
 * store's atomic update otherwise. Only human clicks take a visit; bots and HEAD only ask.
 */
export interface LimitedLink {
  id: number;
  maxClicks: number;
  /** Visits already taken when the link was loaded: where a shared counter starts if it has none. */
  taken: number;
}

export interface VisitLimits {
  /** Takes one visit; false when none is left. */
  take(link: LimitedLink): Promise<boolean>;
  /** Whether every visit is taken. */
  exhausted(link: LimitedLink): Promise<boolean>;
}
