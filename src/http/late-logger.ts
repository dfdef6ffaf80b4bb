/** The part of a logger that background work reports its failures to. */
export interface ErrorLogger {
  error(fields: { err: unknown }, message: string): void;
}

/**
 * A logger known only once the server (or the command line) exists: what fails before it is bound
 * is reported nowhere. `error(message)` makes the handler a promise's failure is given to.
 */
export function lateLogger() {
  let log: ErrorLogger | undefined;
  return {
    bind: (logger: ErrorLogger) => {
      log = logger;
    },
    error: (message: string) => (error: unknown) => log?.error({ err: error }, message),
  };
}

export type LateLogger = ReturnType<typeof lateLogger>;
