/**
 * The one compile-time test that two types say the same: `true` when each is assignable to the
 * other and they have the same keys (so an optional key one lacks is caught too), else `false`.
 * A line `const _x: Same<A, B> = true;` stops compiling when `A` and `B` part.
 *
 * @module
 */

/**
 * `true` when `A` and `B` are assignable both ways and have the same keys, else `false`.
 *
 * @typeParam A One type.
 * @typeParam B The other.
 *
 * @example Usage
 * ```ts
 * import type { Same } from "./same.ts";
 *
 * const _same: Same<{ a: string }, { a: string }> = true;
 * const _parted: Same<{ a: string }, { a: string; b?: number }> = false;
 * ```
 */
export type Same<A, B> = [A, keyof A] extends [B, keyof B]
  ? [B, keyof B] extends [A, keyof A] ? true
  : false
  : false;
