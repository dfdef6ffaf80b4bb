/** A dependency readiness depends on: the store, and Redis when configured (GET /readyz). */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}
