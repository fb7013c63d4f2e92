/**
 * What the Worker sandbox loads from the static asset `src/page/code-mode-sandbox.js` (built from
 * this file by `deno task code-mode-asset`) into an isolate of its own: the script's preparation
 * (acorn) and the harness's source. Both stay out of the Worker's script; the Deno sandbox imports
 * them directly.
 *
 * @module
 */

export { prepareScript } from "./prepare.ts";
export { HARNESS_SOURCE } from "./harness.ts";
