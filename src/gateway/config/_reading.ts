/**
 * Where the gateway's configuration is read: the errors that name a place in it (a JSON pointer),
 * `${VAR}` expansion, and the reading itself — the environment `${VAR}` reads, the configured
 * servers' names and whether a variable not set is deferred. zod hands a check or a transform no
 * context, so `parseGatewayConfig` sets the reading for the length of its one synchronous parse
 * (`whileReading`) and the declaration's leaves ask for it (`reading()`); nothing else sets it.
 *
 * @module
 */

/**
 * A configuration that cannot be used: one message naming the place (a JSON pointer into the
 * file) and what is wrong there.
 *
 * @example Usage
 * ```ts
 * import { GatewayConfigError } from "./_reading.ts";
 * import { equal } from "node:assert/strict";
 *
 * const error = new GatewayConfigError("/mcpServers/a/command", "must be a non-empty string");
 * equal(error.message, 'Invalid gateway config at "/mcpServers/a/command": must be a non-empty string');
 * ```
 */
export class GatewayConfigError extends TypeError {
  /** Where the problem is: a JSON pointer into the configuration (`""` for the whole). */
  readonly pointer: string;
  /** What is wrong there, without the place. */
  readonly problem: string;

  /**
   * Makes the error.
   *
   * @param pointer The JSON pointer of the bad value.
   * @param problem What is wrong with it.
   */
  constructor(pointer: string, problem: string) {
    super(`Invalid gateway config at ${JSON.stringify(pointer)}: ${problem}`);
    this.name = "GatewayConfigError";
    this.pointer = pointer;
    this.problem = problem;
  }
}

/**
 * A value that names environment variables that are not set: the message names the first, as
 * every other problem of the file is named; `variables` has them all.
 *
 * @example Usage
 * ```ts
 * import { UnsetVariableError } from "./_reading.ts";
 * import { equal } from "node:assert/strict";
 *
 * const error = new UnsetVariableError(["mcpServers", "gh", "url"], ["GH_URL"]);
 * equal(error.message, 'Invalid gateway config at "/mcpServers/gh/url": the environment variable GH_URL is not set');
 * ```
 */
export class UnsetVariableError extends GatewayConfigError {
  /** The keys from the config's root to the value. */
  readonly path: readonly string[];
  /** The variables the value names that are not set, each once, in its order. */
  readonly variables: readonly string[];

  /**
   * Makes the error.
   *
   * @param path The keys from the config's root to the value.
   * @param variables The variables not set (at least one).
   */
  constructor(path: readonly string[], variables: readonly string[]) {
    super(pointerOf(path), unsetProblem(variables));
    this.name = "UnsetVariableError";
    this.path = path;
    this.variables = variables;
  }
}

/** What a value whose variables are not set is told: the first of them. */
export function unsetProblem(variables: readonly string[]): string {
  return `the environment variable ${variables[0]} is not set`;
}

/** The JSON pointer of a path of keys. */
export function pointerOf(path: readonly string[]): string {
  return path.map((part) => `/${part.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** What one parse reads besides the file. */
export interface Reading {
  /** The environment variables `${VAR}` reads. */
  env: Readonly<Record<string, string | undefined>>;
  /** The names of the configured servers that are not disabled (what the block may name). */
  servers: readonly string[];
  /** Whether a value naming a variable not set reads as {@linkcode Unset} instead of failing. */
  deferUnset: boolean;
}

let current: Reading | undefined;

/** Runs one synchronous parse with its reading. */
export function whileReading<T>(given: Reading, read: () => T): T {
  const outer = current;
  current = given;
  try {
    return read();
  } finally {
    current = outer;
  }
}

/** The reading of the parse under way. */
export function reading(): Reading {
  if (current === undefined) {
    throw new Error("The gateway config's schemas read through parseGatewayConfig() only");
  }
  return current;
}

/**
 * What a string that names a variable not set reads as while `deferUnset`: it stands in the
 * parsed value until the parse sets its server (or its profile's token) aside, and the checks
 * of a value with such a part leave it unjudged (`judged`).
 */
export class Unset {
  /**
   * Makes the stand-in.
   *
   * @param variables The variables not set, each once, in order.
   */
  constructor(readonly variables: readonly string[]) {}
}

/** Whether a parsed value, or a value within it, waits for a variable. */
export function awaitsVariable(value: unknown): boolean {
  return value instanceof Unset ||
    (typeof value === "object" && value !== null && Object.values(value).some(awaitsVariable));
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` and `${VAR:-default}` in one pass (a value is never expanded again); an
 * empty variable counts as not set.
 *
 * @param text The text.
 * @param env The environment.
 * @returns The text expanded, and the variables not set (each once, in order).
 *
 * @example Usage
 * ```ts
 * import { expand } from "./_reading.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(expand("${A}/${B:-b}/${C}", { A: "a" }), { text: "a/b/", unset: ["C"] });
 * ```
 */
export function expand(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): { text: string; unset: string[] } {
  const unset: string[] = [];
  const expanded = text.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
    // A string, never what Object.prototype holds under the name (`${constructor}`).
    const value: unknown = env[name];
    if (typeof value === "string" && value !== "") return value;
    if (fallback !== undefined) return fallback;
    if (!unset.includes(name)) unset.push(name);
    return "";
  });
  return { text: expanded, unset };
}
