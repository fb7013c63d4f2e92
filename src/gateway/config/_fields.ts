/**
 * The pieces the gateway's configuration is declared with (`config_model.ts`): a field is the
 * JSON Schema of one key's value and the reader that checks it, so the parser, the schema for
 * editors and the types cannot say different things. Readers throw a {@linkcode GatewayConfigError}
 * at the value's JSON pointer; `parseGatewayConfig` turns it into a value.
 *
 * @module
 */

import { closestKey } from "../../utils/edit_distance.ts";
import { isRecord } from "../../utils/record.ts";
import { down, expand, fail, orUnset, type Place, UNREAD } from "./_place.ts";

export {
  down,
  expand,
  fail,
  GatewayConfigError,
  type Place,
  UnsetVariableError,
} from "./_place.ts";

/** A JSON Schema (draft-07) fragment. */
export type JsonSchema = { [keyword: string]: unknown };

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

/** What a field reads. */
export type Read<F> = F extends Field<infer T> ? T : never;

type Always = { fill: () => unknown } | { required: true };

/** An object as read by its shape: filled and required keys always there, ignored ones gone. */
export type Parsed<S extends Shape> =
  & {
    -readonly [K in keyof S as S[K] extends { ignored: true } | Always ? never : K]?: Read<S[K]>;
  }
  & {
    -readonly [
      K in keyof S as S[K] extends { ignored: true } ? never : S[K] extends Always ? K
      : never
    ]: Read<S[K]>;
  } extends infer O ? { [K in keyof O]: O[K] } : never;

/** `true` when `A` and `B` have the same keys and each is assignable to the other. */
export type Same<A, B> = [A, keyof A] extends [B, keyof B]
  ? [B, keyof B] extends [A, keyof A] ? true : false
  : false;

/** Compiles only when every item is `true`: a check `deno check` makes. */
export type Check<T extends readonly true[]> = T;

/** A field whose value is also checked by `check` once read. */
export function refine<F extends Field<unknown>>(
  field: F,
  check: (value: Read<F>, at: Place) => void,
): F {
  return {
    ...field,
    read(raw: unknown, at: Place) {
      const kept = at.unset?.length;
      const value = field.read(raw, at) as Read<F>;
      // A value with a part left out (a variable not set) cannot be judged as a whole.
      if (at.unset?.length === kept) check(value, at);
      return value;
    },
  };
}

/** A string, `${VAR}` expanded; `""` refused unless `nonEmpty` is false. */
export function text(nonEmpty = true): Field<string> {
  return {
    schema: { type: "string", ...(nonEmpty ? { minLength: 1 } : {}) },
    read: (raw, at) =>
      typeof raw === "string" && (raw !== "" || !nonEmpty)
        ? expand(raw, at)
        : fail(at, `must be a ${nonEmpty ? "non-empty " : ""}string`),
  };
}

/**
 * One of a few strings, and the value an absent key stands for (`fallback`, the schema's
 * `default`): the code that reads the option takes its fallback from here, so it is said once.
 */
export function choice<T extends string>(
  values: readonly T[],
  fallback?: T,
): Field<T> & { fallback?: T } {
  return {
    schema: { enum: values, ...(fallback === undefined ? {} : { default: fallback }) },
    ...(fallback === undefined ? {} : { fallback }),
    read: (raw, at) =>
      (values as readonly unknown[]).includes(raw)
        ? raw as T
        : fail(at, `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`),
  };
}

/** An array, each item read at its index; `problem` is what a value that is no array is told. */
export function list<T>(item: Field<T>, problem: string, schema: JsonSchema = {}): Field<T[]> {
  return {
    schema: { type: "array", items: item.schema, ...schema },
    read(raw, at) {
      if (!Array.isArray(raw)) return fail(at, problem);
      const out: T[] = [];
      raw.forEach((v, i) => {
        const value = orUnset(at, () => item.read(v, down(at, String(i))));
        if (value !== UNREAD) out.push(value);
      });
      return out;
    },
  };
}

/** An object of values by name, each read by one field; names may have to match a pattern. */
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
        const read = orUnset(at, () => item.read(value, down(at, name)));
        if (read !== UNREAD) out[name] = read;
      }
      return out;
    },
  };
}

/**
 * Refuses the first key not in `keys`: a near miss is named as the key it meant, any other with
 * the keys there are, after `takes` (`"a profile takes"`).
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

/** The JSON Schema of an object of a shape (no other keys). */
export function shapeSchema(shape: Shape): JsonSchema {
  const required = Object.keys(shape).filter((key) => shape[key]!.required);
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(shape).map(([key, f]) => [key, f.schema])),
    ...(required.length === 0 ? {} : { required }),
    additionalProperties: false,
  };
}

/** Reads the keys of a shape, in its order, from an object whose keys were checked. */
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
    const value = orUnset(at, () => f.read(raw[key], down(at, key)));
    if (!f.ignored && value !== UNREAD) out[key] = value;
  }
  return out as Parsed<S>;
}

/** An object of a shape; another key is refused (see {@linkcode knownKeys}). */
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
