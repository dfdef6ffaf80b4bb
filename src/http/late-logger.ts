import type { FastifyBaseLogger } from 'fastify';

/** A logger known only once the server exists; what is logged before goes nowhere. */
export function lateLogger() {
  let log: FastifyBaseLogger | undefined;
  return {
    bind: (logger: FastifyBaseLogger) => {
      log = logger;
    },
    error: (message: string) => (error: unknown) => log?.error({ err: error }, message),
  };
}

export type LateLogger = ReturnType<typeof lateLogger>;
