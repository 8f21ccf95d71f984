// Typed errors of the binary. Contract: a ConfigError is a bad flag, variable or argument; the
// binary prints its message on stderr and exits 2 before anything starts.

export class ConfigError extends Error {
  readonly code = "config_invalid";

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ConfigError";
  }
}
