/**
 * Where a value of the gateway's configuration is read (`Place`), the errors a read throws there,
 * and `${VAR}` expansion: a variable that is not set is the one problem a reader may keep (in
 * `Place.unset`) and read on, as a command that serves only some servers needs.
 *
 * @module
 */

/** Where a value is read: its path in the config, the environment and the configured servers. */
export interface Place {
  /** The keys from the config's root to the value. */
  path: readonly string[];
  /** The environment variables `${VAR}` reads. */
  env: Readonly<Record<string, string | undefined>>;
  /** The names of the configured servers (enabled ones). */
  servers: readonly string[];
  /**
   * Where a variable that is not set is kept, when its use decides (`deferUnset`): the value that
   * names it is left out and the rest is still read. Without it, such a variable fails the read.
   */
  unset?: UnsetVariableError[];
}

/**
 * A configuration that cannot be used: one message naming the place (a JSON pointer into the
 * file) and what is wrong there.
 *
 * @example Usage
 * ```ts
 * import { GatewayConfigError } from "./_place.ts";
 * import { equal } from "node:assert/strict";
 *
 * const error = new GatewayConfigError("/mcpServers/a/command", "must be a non-empty string");
 * equal(error.message, 'Invalid gateway config at "/mcpServers/a/command": must be a non-empty string');
 * ```
 */
export class GatewayConfigError extends TypeError {
  /** Where the problem is: a JSON pointer into the configuration (`""` for the whole). */
  readonly pointer: string;

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
  }
}

/**
 * A value that names environment variables that are not set: the message names the first, as
 * every other problem of the file is named; `variables` has them all.
 *
 * @example Usage
 * ```ts
 * import { UnsetVariableError } from "./_place.ts";
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
    super(pointerOf(path), `the environment variable ${variables[0]} is not set`);
    this.name = "UnsetVariableError";
    this.path = path;
    this.variables = variables;
  }
}

function pointerOf(path: readonly string[]): string {
  return path.map((part) => `/${part.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** Stops reading: throws the problem at the place (or at keys `below` it). */
export function fail(at: Place, problem: string, ...below: string[]): never {
  throw new GatewayConfigError(pointerOf([...at.path, ...below]), problem);
}

/** What {@linkcode orUnset} gives for a value left out. */
export const UNREAD: unique symbol = Symbol("unread");

/**
 * Reads one value of an object or array: with a place to keep them (`at.unset`), a variable not
 * set is kept and the value left out, so that the values after it are still checked.
 */
export function orUnset<T>(at: Place, read: () => T): T | typeof UNREAD {
  if (at.unset === undefined) return read();
  try {
    return read();
  } catch (e) {
    if (!(e instanceof UnsetVariableError)) throw e;
    at.unset.push(e);
    return UNREAD;
  }
}

/** The place of a value below another. */
export function down(at: Place, ...keys: string[]): Place {
  return { ...at, path: [...at.path, ...keys] };
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Replaces `${VAR}` and `${VAR:-default}`; one pass, so values are never expanded again. */
export function expand(text: string, at: Place): string {
  const unset: string[] = [];
  const expanded = text.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
    const value = at.env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    if (!unset.includes(name)) unset.push(name);
    return "";
  });
  if (unset.length > 0) throw new UnsetVariableError(at.path, unset);
  return expanded;
}
