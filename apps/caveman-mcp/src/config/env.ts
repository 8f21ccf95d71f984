// The one reader of environment variables. Contract: a variable that is unset, empty or only
// whitespace counts as unset, for every variable the binary reads (one rule; `CAVEMAN_CCR_DB=" "`
// and `CAVEMAN_CHIP_DIR=" "` both fall through to their defaults); any other value is returned as
// given. `pick` applies "argv beats env beats default" and records where each setting came from.

/** The environment as the binary was started with it (tests pass their own object). */
export type Environment = Readonly<Record<string, string | undefined>>;

export type SettingSource = "flag" | "env" | "default";

/** The value of `name`, or undefined when it is unset, empty or only whitespace. */
export function envValue(env: Environment, name: string): string | undefined {
  const v = env[name];
  return v !== undefined && v.trim() !== "" ? v : undefined;
}

/** Looks settings up flag first, then variable, and remembers which one answered. */
export class SettingReader {
  readonly sources: Record<string, SettingSource> = {};

  constructor(readonly env: Environment) {}

  /** The flag if given, else the variable if set (see envValue), else undefined (the default). */
  pick(setting: string, flag: string | undefined, variable: string): string | undefined {
    if (flag !== undefined) {
      this.sources[setting] = "flag";
      return flag;
    }
    const v = envValue(this.env, variable);
    this.sources[setting] = v !== undefined ? "env" : "default";
    return v;
  }

  /** The variable's value under the same rule, without recording a source. */
  value(variable: string): string | undefined {
    return envValue(this.env, variable);
  }
}
