/**
 * The depth refusal in a fresh process: there the validator runs unoptimised, with larger stack
 * frames than after other tests have warmed the engine up, so the engine's own stack can run out
 * before the depth limit does.
 *
 * @module
 */

import { equal, match } from "node:assert/strict";
import { runDeno } from "../_deno.ts";

// The first validation of the process: a schema that refers to itself without end.
const PROGRAM = `
import { validateArguments } from "./src/schema/validate.ts";
const tool = {
  server: "s",
  name: "t",
  description: "",
  inputSchema: { type: "object", properties: { x: { $ref: "#/properties/x" } } },
};
console.log(JSON.stringify(validateArguments(tool, { x: 1 })));
`;

Deno.test("a schema that refers to itself without end is refused for its depth in a cold process", async () => {
  const out = await runDeno(["eval", "--node-modules-dir=auto", PROGRAM]);
  equal(out.code, 0, out.stderr);
  const problems = JSON.parse(out.stdout);
  equal(problems.length, 1);
  match(problems[0].message, /MAX_VALIDATION_DEPTH/);
});
