// The gateway config's parser on random configs (`_config_arbitraries.ts`): what holds of every
// answer, whatever the file says. It never throws; a refusal is one line at a JSON pointer whose
// parent is in the file; whatever it takes, the committed JSON Schema takes too (the schema is
// looser: it cannot know the servers, the environment or a URL); text and value read alike; a
// variable deferred leaves the rest as the plain parse reads it; objects of names have no
// prototype.
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { Ajv } from "ajv";
import {
  type GatewayConfigResult,
  parseGatewayConfig,
  UnsetVariableError,
} from "../../src/gateway/config/parse.ts";
import { ROOT } from "../_deno.ts";
import { config, deferUnset, ENV } from "./_config_arbitraries.ts";
import { runs } from "./_runs.ts";

const validate = new Ajv().compile(
  JSON.parse(await Deno.readTextFile(`${ROOT}docs/unfold.schema.json`)),
);

// The value at a JSON pointer's parent, if the input has one there.
function parentOf(input: unknown, pointer: string): boolean {
  const parts = pointer.split("/").slice(1, -1).map((p) =>
    p.replaceAll("~1", "/").replaceAll("~0", "~")
  );
  let at = input;
  for (const part of parts) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, part)) return false;
    at = (at as Record<string, unknown>)[part];
  }
  return typeof at === "object" && at !== null;
}

// What a result says, with objects of names read as any other object.
const said = (result: GatewayConfigResult) =>
  JSON.stringify(result.ok ? result.value : result.error.message);

Deno.test("the config parser's answers hold their promises on random configs", () => {
  let accepted = 0;
  fc.assert(
    fc.property(config, deferUnset, (input, defer) => {
      const parsed = parseGatewayConfig(input, ENV, { deferUnset: defer });
      if (typeof input !== "string") {
        const text = parseGatewayConfig(JSON.stringify(input), ENV, { deferUnset: defer });
        equal(said(text), said(parsed));
      }
      if (!parsed.ok) {
        const { message, pointer } = parsed.error;
        ok(!message.includes("\n"), message);
        ok(message.startsWith(`Invalid gateway config at ${JSON.stringify(pointer)}: `), message);
        ok(pointer === "" || parentOf(input, pointer), `${pointer} in ${JSON.stringify(input)}`);
        return;
      }
      accepted++;
      ok(validate(input), `the schema refuses what the parser takes: ${JSON.stringify(input)}`);
      const { servers, options, awaiting = [] } = parsed.value;
      for (const server of servers) {
        equal(Object.getPrototypeOf("env" in server ? server.env : server.headers), null);
      }
      if (options.profiles !== undefined) equal(Object.getPrototypeOf(options.profiles), null);
      for (const { error, variables } of awaiting) {
        ok(error instanceof UnsetVariableError);
        for (const name of variables) ok(!Object.hasOwn(ENV, name) || ENV[name] === "", name);
      }
      if (defer) {
        // Read plainly, the config is refused for its first variable not set, or the same.
        const plain = parseGatewayConfig(input, ENV);
        if (awaiting.length === 0) {
          deepEqual(said(plain), said({ ok: true, value: { servers, options } }));
        } else equal(plain.ok ? "" : plain.error.message, awaiting[0]!.error.message);
      }
    }),
    // Half the usual runs: a refused config costs a parse of its own and its zod error.
    runs(0.5),
  );
  // The random configs are not all refused: the parser is exercised past the first key.
  ok(accepted > 0);
});
