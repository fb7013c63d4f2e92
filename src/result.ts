/**
 * The one shape of an expected failure (STYLE rule 12): a value, never an exception, with a
 * stable `code` and a `message` that says what to do next. Exceptions are for programmer errors.
 *
 * @module
 */

/**
 * What a step that can fail in an expected way returns: `{ok: true, value}` or
 * `{ok: false, error}`, where `error` carries a `message` and, by default, a string `code` (or,
 * where a caller only shows it, is that message).
 * Callers branch on `ok`; they never have to tell a bad input from a bug by catching.
 *
 * @typeParam T The value on success.
 * @typeParam E The failure: by default `{code, message}`; an `Error` subclass fits too, and so
 * does a `string`, the message alone.
 *
 * @example Usage
 * ```ts
 * import type { Result } from "../mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * function half(n: number): Result<number, { code: "odd"; message: string }> {
 *   return n % 2 === 0
 *     ? { ok: true, value: n / 2 }
 *     : { ok: false, error: { code: "odd", message: `Cannot halve ${n}: it is odd` } };
 * }
 * const result = half(3);
 * equal(result.ok ? result.value : result.error.code, "odd");
 * ```
 */
export type Result<
  T,
  E extends { readonly message: string } | string = { code: string; message: string },
> =
  | { ok: true; value: T }
  | { ok: false; error: E };
