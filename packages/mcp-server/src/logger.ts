// The logging port. Contract: the server never writes diagnostics anywhere but this injected
// logger (the app points it at stderr); stdout belongs to the transport alone.

/** Where the server reports what it does; every method must be safe to call at any time. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger that drops everything (the default when none is injected). */
export const silentLogger: Logger = {
  info: () => {},
  warn: () => {},
  error: () => {},
};
