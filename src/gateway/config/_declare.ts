/**
 * The pieces the gateway's configuration is declared with, over `zod/mini` (as `src/http`): a
 * key with its words (the docs' table, the JSON Schema's descriptions), an object whose unknown
 * key is answered with the key it meant, a string with `${VAR}` expanded, values by name, lists
 * kept once each. Every message is the declaration's own (`zod/mini` carries no locale).
 *
 * Two parse with a function and name the zod schema they stand for in the JSON Schema
 * (`parsedBy`): values by name — zod's `record` drops a `__proto__` key unsaid; these keep every
 * name, in an object without a prototype, so `constructor` is a name like another — and a server
 * entry, stdio or HTTP by which key it has (`servers.ts`).
 *
 * @module
 */

import * as z from "zod/mini";
import { closestKey } from "../../utils/edit_distance.ts";
import { isRecord } from "../../utils/record.ts";
import { awaitsVariable, expand, reading, Unset, unsetProblem } from "./_reading.ts";

/** What a key takes, and the value its absence stands for, as the docs say them. */
export type KeyWords = { values: string; fallback?: string };

/** The words of every key, by its schema. */
export const WORDS: z.core.$ZodRegistry<KeyWords> = z.registry<KeyWords>();

/** The zod schema that a schema parsing with a function stands for in the JSON Schema. */
export const DOCUMENTED_AS: WeakMap<z.core.$ZodType, z.core.$ZodType> = new WeakMap();

/** A value parsed by a function (see {@linkcode parsedBy}). */
export type ParsedBy<O> = z.ZodMiniPipe<z.ZodMiniTransform<O, unknown>, z.ZodMiniCustom<O, O>>;

/**
 * A schema that parses with `parse` (which adds its issues to `ctx`), written in the JSON Schema
 * as `standsFor`; like `standsFor`, a key of it is required unless made optional.
 */
export function parsedBy<O>(
  parse: (raw: unknown, ctx: z.core.ParsePayload) => O,
  standsFor: z.core.$ZodType,
): ParsedBy<O> {
  const schema = z.pipe(z.transform<unknown, O>(parse), z.custom<Awaited<O>>());
  DOCUMENTED_AS.set(schema, standsFor);
  return schema as unknown as ParsedBy<O>;
}

/** A key's schema with its words (each key's schema is its own: words are kept by schema). */
export function key<T extends z.ZodMiniType>(schema: T, values: string, fallback?: string): T {
  if (WORDS.has(schema)) throw new Error(`Two keys share one schema: ${values}`);
  WORDS.add(schema, fallback === undefined ? { values } : { values, fallback });
  return schema;
}

type Issues = { issues: z.core.$ZodRawIssue[] };

/** Adds an issue of the value under check (or of keys `below` it). */
export function problem(ctx: Issues, input: unknown, message: string, ...below: string[]): never {
  ctx.issues.push({ code: "custom", message, input, path: below });
  return z.NEVER;
}

/** A check whose problem, when the value has one, `check` says. */
export function rule<T>(check: (value: T) => string | undefined): z.core.$ZodCheck<T> {
  return z.superRefine((value: T, ctx) => {
    const message = check(value);
    if (message !== undefined) problem(ctx, value, message);
  });
}

/** Carries the issues of a value parsed apart into the parse under way, below `path`. */
export function carry(ctx: Issues, issues: readonly z.core.$ZodIssue[], ...path: string[]): void {
  for (const issue of issues) {
    ctx.issues.push({ ...issue, path: [...path, ...issue.path] } as z.core.$ZodRawIssue);
  }
}

/** What an unknown key is told: the key it meant when one is close, else those there are. */
export function unknownField(key: string, keys: readonly string[], takes: string): string {
  const meant = closestKey(key, keys);
  return meant === undefined
    ? `unknown field: ${takes} ${keys.join(", ")}`
    : `unknown field: did you mean ${JSON.stringify(meant)}?`;
}

/**
 * An object of these keys and no other: the first unknown key is answered by `unknown` (with
 * `unknownField` after a `takes` such as `"a profile takes"`), a value that is no object by
 * `notAnObject`.
 */
export function shape<S extends z.core.$ZodLooseShape>(
  keys: S,
  unknown: string | ((key: string) => string),
  notAnObject = "must be an object",
): z.ZodMiniObject<S, z.core.$strict> {
  const names = Object.keys(keys);
  const said = typeof unknown === "string"
    ? (k: string) => unknownField(k, names, unknown)
    : unknown;
  return z.strictObject(keys, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? said(String(issue.keys[0])) : notAnObject,
  }) as z.ZodMiniObject<S, z.core.$strict>;
}

/**
 * A string with `${VAR}` and `${VAR:-default}` expanded from the reading's environment, checked
 * as written (`""` refused unless `nonEmpty` is false). A variable not set fails the value or,
 * while `deferUnset` and where it may wait (`deferrable`: in a server's entry, a profile's
 * tokens), reads as an {@linkcode Unset} that the parse sets aside with its server or token.
 */
export function text(
  { nonEmpty = true, deferrable = true } = {},
): z.ZodMiniPipe<z.ZodMiniString<string>, z.ZodMiniTransform<string, string>> {
  const what = nonEmpty ? "must be a non-empty string" : "must be a string";
  const written = z.string({ error: what });
  return z.pipe(
    nonEmpty ? written.check(z.minLength(1, { error: what })) : written,
    z.transform((raw: string, ctx) => {
      const { env, deferUnset } = reading();
      const { text, unset } = expand(raw, env);
      if (unset.length === 0) return text;
      if (deferUnset && deferrable) return new Unset(unset) as unknown as string;
      ctx.issues.push({
        code: "custom",
        message: unsetProblem(unset),
        input: raw,
        params: { unset },
      });
      return z.NEVER;
    }),
  );
}

/** A check that leaves a value unjudged while a part of it waits for a variable. */
export function judged<T>(check: (value: T) => boolean): (value: T) => boolean {
  return (value) => awaitsVariable(value) || check(value);
}

/** A list with each item kept once, in its first place. */
export function once<T extends z.ZodMiniType<unknown[]>>(
  list: T,
): z.ZodMiniPipe<T, z.ZodMiniTransform<z.output<T>, z.output<T>>> {
  return z.pipe(list, z.transform((items) => [...new Set(items)] as z.output<T>));
}

/** A value that may be left out (or be `null`, if `schema` takes it): it then reads as `fill()`. */
export function filled<T extends z.ZodMiniType>(
  schema: T,
  fill: () => NonNullable<z.output<T>>,
): z.ZodMiniPipe<
  z.ZodMiniOptional<T>,
  z.ZodMiniTransform<NonNullable<z.output<T>>, z.output<T> | undefined>
> {
  return z.pipe(
    z.optional(schema),
    z.transform((value: z.output<T> | undefined) => value ?? fill()),
  );
}

/** An object of values by name, as parsed: no prototype, so any name is its own key. */
export type ByName<T> = Record<string, T>;

/** A value read by name, with its name under `N` (none when `N` is `never`). */
export type Named<T, N extends string> = [N] extends [never] ? Exclude<T, undefined>
  : { [K in N]: string } & Exclude<T, undefined>;

/**
 * Values by name, each name checked by `names` and each value by `value`, in an object with no
 * prototype that keeps every name. With `nameAs`, each value gets its name under that key (a
 * server's `server`, a profile's `name`); a value read as `undefined` (a disabled server) is left
 * out.
 */
export function byName<V extends z.ZodMiniType, N extends string = never>(
  names: z.ZodMiniType<string, string>,
  value: V,
  notAnObject: string,
  nameAs?: N,
): ParsedBy<ByName<Named<z.output<V>, N>>> {
  type Out = Named<z.output<V>, N>;
  return parsedBy((raw: unknown, ctx) => {
    if (!isRecord(raw)) return problem(ctx, raw, notAnObject);
    const out: ByName<Out> = Object.create(null);
    for (const name of Object.keys(raw)) {
      const named = z.safeParse(names, name);
      const read = named.success ? z.safeParse(value, raw[name]) : undefined;
      if (!named.success) problem(ctx, name, named.error.issues[0]!.message, name);
      else if (!read!.success) carry(ctx, read!.error.issues, name);
      else if (read!.data !== undefined) {
        out[name] = (nameAs === undefined ? read!.data : { [nameAs]: name, ...read!.data }) as Out;
      }
    }
    return out;
  }, z.record(names, value));
}

/** An empty object of values by name. */
export function none<T>(): ByName<T> {
  return Object.create(null);
}
