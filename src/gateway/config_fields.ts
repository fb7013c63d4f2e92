/**
 * The pieces the gateway's configuration is declared with (`config_model.ts`): a field is the
 * JSON Schema of one key's value and the reader that checks it, so the parser, the schema for
 * editors and the types cannot say different things. Readers throw a {@linkcode GatewayConfigError}
 * at the value's JSON pointer; `parseGatewayConfig` turns it into a value.
 *
 * @module
 */

import { closestKey } from "../_edit_distance.ts";
import { isRecord } from "../_record.ts";

/** A JSON Schema (draft-07) fragment. */
export type JsonSchema = { [keyword: string]: unknown };

/** Where a value is read: its path in the config, the environment and the configured servers. */
export interface Place {
  /** The keys from the config's root to the value. */
  path: readonly string[];
  /** The environment variables `${VAR}` reads. */
  env: Readonly<Record<string, string | undefined>>;
  /** The names of the configured servers (in `mcpServers`, enabled). */
  servers: readonly string[];
}

/** One key's value: its JSON Schema and how it is read. */
export interface Field<T> {
  /** The value's JSON Schema (for editors; the reader is what decides). */
  readonly schema: JsonSchema;
  /** Checks a value that is present and returns it as parsed; throws a `GatewayConfigError`. */
  readonly read: (raw: unknown, at: Place) => T;
  /** The value the parser gives an absent key; without it the key stays absent. */
  readonly fill?: () => T;
  /** A key the entry must have (the schema's `required`). */
  readonly required?: true;
  /** A key that is checked but kept out of the parsed value (what other hosts write). */
  readonly ignored?: true;
}

/** The keys of an object and their fields. */
export type Shape = { readonly [key: string]: Field<unknown> };

type Always = { fill: () => unknown } | { required: true };
type Simplify<T> = { [K in keyof T]: T[K] } & unknown;

/** An object as read by its shape: filled and required keys always present, ignored ones gone. */
export type Parsed<S extends Shape> = Simplify<
  & { -readonly [K in keyof S as S[K] extends { ignored: true } | Always ? never : K]?: Read<S[K]> }
  & {
    -readonly [
      K in keyof S as S[K] extends { ignored: true } ? never : S[K] extends Always ? K
      : never
    ]: Read<S[K]>;
  }
>;

/** What a field reads. */
export type Read<F> = F extends Field<infer T> ? T : never;

/**
 * A configuration that cannot be used: one message naming the place (a JSON pointer into the
 * file) and what is wrong there.
 *
 * @example Usage
 * ```ts
 * import { GatewayConfigError } from "./config_fields.ts";
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
 * Stops reading at a problem.
 *
 * @param at The place of the value (or of its parent, with `below`).
 * @param problem What is wrong, in a phrase that follows the place.
 * @param below Keys below the place.
 * @returns Never: it throws.
 * @throws {GatewayConfigError} Always.
 */
export function fail(at: Place, problem: string, ...below: string[]): never {
  const path = [...at.path, ...below];
  throw new GatewayConfigError(
    path.map((part) => `/${part.replaceAll("~", "~0").replaceAll("/", "~1")}`).join(""),
    problem,
  );
}

/**
 * The place of a value below another.
 *
 * @param at The parent's place.
 * @param keys The keys down to the value.
 * @returns Its place.
 */
export function down(at: Place, ...keys: string[]): Place {
  return { ...at, path: [...at.path, ...keys] };
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` and `${VAR:-default}` from the environment, in one pass (a value is never
 * expanded again); a variable that is not set (or empty) and has no default is a problem.
 *
 * @param text The string from the config.
 * @param at Its place.
 * @returns The string expanded.
 * @throws {GatewayConfigError} When a variable is not set.
 */
export function expand(text: string, at: Place): string {
  return text.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
    const value = at.env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    return fail(at, `the environment variable ${name} is not set`);
  });
}

/**
 * A string, `${VAR}` expanded.
 *
 * @param nonEmpty Whether `""` is refused.
 * @param schema More of its schema.
 * @returns The field.
 */
export function text(nonEmpty = true, schema: JsonSchema = {}): Field<string> {
  return {
    schema: { type: "string", ...(nonEmpty ? { minLength: 1 } : {}), ...schema },
    read: (raw, at) =>
      typeof raw === "string" && (raw !== "" || !nonEmpty)
        ? expand(raw, at)
        : fail(at, `must be a ${nonEmpty ? "non-empty " : ""}string`),
  };
}

/**
 * One of a few strings.
 *
 * @param values The strings, the default first.
 * @returns The field.
 */
export function choice<T extends string>(values: readonly T[]): Field<T> {
  return {
    schema: { enum: values },
    read: (raw, at) =>
      (values as readonly unknown[]).includes(raw)
        ? raw as T
        : fail(at, `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`),
  };
}

/**
 * An array, each item read by a field at its index.
 *
 * @param item The items' field.
 * @param problem What a value that is no array is told.
 * @param schema More of its schema.
 * @returns The field.
 */
export function list<T>(item: Field<T>, problem: string, schema: JsonSchema = {}): Field<T[]> {
  return {
    schema: { type: "array", items: item.schema, ...schema },
    read: (raw, at) =>
      Array.isArray(raw) ? raw.map((v, i) => item.read(v, down(at, String(i)))) : fail(at, problem),
  };
}

/**
 * An object whose own keys are names, each value read by one field.
 *
 * @param item The values' field.
 * @param problem What a value that is no object is told.
 * @param names The names' pattern and what a name that does not match is told.
 * @returns The field.
 */
export function record<T>(
  item: Field<T>,
  problem: string,
  names?: { pattern: RegExp; problem: string },
): Field<Record<string, T>> {
  return {
    schema: {
      type: "object",
      ...(names === undefined ? {} : { propertyNames: { pattern: names.pattern.source } }),
      additionalProperties: item.schema,
    },
    read(raw, at) {
      if (!isRecord(raw)) return fail(at, problem);
      const out: Record<string, T> = {};
      for (const [name, value] of Object.entries(raw)) {
        if (names !== undefined && !names.pattern.test(name)) fail(at, names.problem, name);
        out[name] = item.read(value, down(at, name));
      }
      return out;
    },
  };
}

/**
 * Refuses the first key a shape does not have: a near miss is named as the key it meant, any
 * other with the keys there are.
 *
 * @param raw The object.
 * @param keys The keys it may have.
 * @param at Its place.
 * @param takes What the list of keys follows, such as `"a profile takes"`.
 * @throws {GatewayConfigError} At the first unknown key.
 */
export function knownKeys(
  raw: Record<string, unknown>,
  keys: readonly string[],
  at: Place,
  takes: string,
): void {
  for (const key of Object.keys(raw)) {
    if (keys.includes(key)) continue;
    const meant = closestKey(key, keys);
    fail(
      at,
      meant === undefined
        ? `unknown field: ${takes} ${keys.join(", ")}`
        : `unknown field: did you mean ${JSON.stringify(meant)}?`,
      key,
    );
  }
}

/**
 * The JSON Schema of an object of a shape (no other keys).
 *
 * @param shape The keys and their fields.
 * @returns The schema.
 */
export function shapeSchema(shape: Shape): JsonSchema {
  const required = Object.keys(shape).filter((key) => shape[key]!.required);
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(shape).map(([key, f]) => [key, f.schema])),
    ...(required.length === 0 ? {} : { required }),
    additionalProperties: false,
  };
}

/**
 * Reads the keys of a shape from an object whose keys are known, in the shape's order.
 *
 * @param shape The keys and their fields.
 * @param raw The object.
 * @param at Its place.
 * @returns The parsed object.
 */
export function readShape<S extends Shape>(
  shape: S,
  raw: Record<string, unknown>,
  at: Place,
): Parsed<S> {
  const out: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(shape)) {
    if (!Object.hasOwn(raw, key) || raw[key] === undefined) {
      if (f.required) fail(at, `needs ${JSON.stringify(key)}`);
      if (f.fill !== undefined) out[key] = f.fill();
      continue;
    }
    const value = f.read(raw[key], down(at, key));
    if (!f.ignored) out[key] = value;
  }
  return out as Parsed<S>;
}

/**
 * An object of a shape: another key is refused (see {@linkcode knownKeys}).
 *
 * @param shape The keys and their fields.
 * @param takes What the list of keys follows in a refusal, such as `"a profile takes"`.
 * @param problem What a value that is no object is told.
 * @returns The field.
 */
export function object<S extends Shape>(
  shape: S,
  takes: string,
  problem = "must be an object",
): Field<Parsed<S>> {
  return {
    schema: shapeSchema(shape),
    read(raw, at) {
      if (!isRecord(raw)) return fail(at, problem);
      knownKeys(raw, Object.keys(shape), at, takes);
      return readShape(shape, raw, at);
    },
  };
}
