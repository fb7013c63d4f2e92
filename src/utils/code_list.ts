/**
 * The one way to declare a list of every member of a union of codes (error codes, modes,
 * reasons): from an object literal keyed by the union, so that the compiler refuses a list that
 * misses a member or names one the union lacks. `test/code_lists_test.ts` finds every exported
 * code list of `src/` and holds it, and the docs tables that list its codes, to its union.
 *
 * @module
 */

/**
 * Every member of the union `C`, in the order of the object's keys, frozen. The type argument is
 * required: the object must then have exactly one key per member (a missing or an extra one is a
 * compile error). Codes are names: a key that is an integer would be listed first, out of order.
 *
 * @typeParam C The union of codes.
 * @param every An object with one key per member of `C` (the values are not read).
 * @returns The members, in the object's order.
 *
 * @example Usage
 * ```ts
 * import { codeList } from "./code_list.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * type Colour = "red" | "green";
 * deepEqual(codeList<Colour>({ red: 0, green: 0 }), ["red", "green"]);
 * ```
 */
export function codeList<C extends string = never>(
  every: [C] extends [never] ? never : Record<NoInfer<C>, 0>,
): readonly [C, ...C[]] {
  return Object.freeze(Object.keys(every)) as unknown as readonly [C, ...C[]];
}
