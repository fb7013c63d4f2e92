/**
 * A prepared script as the sandboxes compile it: the body of an async function inside a factory
 * that takes the step function (`prepare.ts` puts its calls in), as a script expression for a
 * `node:vm` context or as an ES module for a Worker isolate. The code starts on line 2 of both.
 *
 * @module
 */

/** The name of the step function; a script may not use a name that starts with `__unfold`. */
export const STEP = "__unfold_step";

/**
 * The prepared code as a script expression whose value is the script's factory
 * (`(step) => async function`): what a `node:vm` context compiles.
 *
 * @param source The prepared code.
 * @returns The expression.
 *
 * @example Usage
 * ```ts
 * import { scriptExpression } from "./script_text.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(scriptExpression("return 1").split("\n")[1], "return 1");
 * ```
 */
export function scriptExpression(source: string): string {
  return `(function (${STEP}) { "use strict"; return async function () {\n${source}\n}; })`;
}

/**
 * The prepared code as an ES module whose default export is the script's factory: what a
 * Worker Loader isolate loads.
 *
 * @param source The prepared code.
 * @returns The module's text.
 *
 * @example Usage
 * ```ts
 * import { scriptModule } from "./script_text.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(scriptModule("return 1").startsWith("export default function"));
 * ```
 */
export function scriptModule(source: string): string {
  return `export default function (${STEP}) { return async function () {\n${source}\n}; }`;
}
