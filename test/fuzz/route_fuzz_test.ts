// Injector.route never throws on model input, and every result is a well-formed action whose text
// for the model shows no invisible character.
import { equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { Injector, McpCatalog } from "../../mod.ts";
import { hasInvisible } from "../../src/untrusted.ts";
import { argumentsObject, hostileText, schema } from "./_arbitraries.ts";
import { runs } from "./_runs.ts";

const catalog = fc.uniqueArray(
  fc.record({
    server: fc.oneof(
      fc.constantFrom("files", "git"),
      hostileText.map((t) => t.replace(/[\/\p{Cc}\u2028\u2029]/gu, "") || "s"),
    ),
    name: fc.oneof(
      fc.constantFrom("read", "write", "status"),
      hostileText.map((t) => t.replace(/[\p{Cc}\u2028\u2029]/gu, "") || "n"),
    ),
    description: hostileText,
    inputSchema: schema,
  }).map((t) => ({ ...t, server: t.server.slice(0, 128), name: t.name.slice(0, 128) })),
  { minLength: 1, maxLength: 6, selector: (t) => `${t.server}/${t.name}` },
);
const args = fc.oneof(
  fc.record({
    action: fc.oneof(fc.constantFrom("search", "describe", "execute", "more"), hostileText),
    query: hostileText,
    name: fc.oneof(hostileText, fc.constantFrom("files/read", "read", "git/statu")),
    limit: fc.oneof(fc.integer(), fc.constant("2"), hostileText),
    arguments: fc.oneof(argumentsObject, fc.json()),
    ref: fc.oneof(hostileText, fc.constantFrom("abcdefabcdef.2", "abcdefabcdef.0", "x.2")),
  }, { requiredKeys: ["action"] }),
  fc.json(),
  fc.jsonValue(),
  hostileText,
  fc.anything(),
);

Deno.test("Injector.route never throws and never shows the model an invisible character", () => {
  fc.assert(
    fc.property(catalog, fc.array(args, { minLength: 1, maxLength: 4 }), (tools, calls) => {
      const injector = new Injector(new McpCatalog(tools));
      const prompt = injector.inject()!.prompt;
      ok(!hasInvisible(prompt), prompt);
      for (const call of calls) {
        const action = injector.route(call);
        ok(["search", "describe", "execute", "error"].includes(action.action));
        if (action.action === "execute") {
          ok(injector.catalog.get(action.id) === action.tool);
          continue;
        }
        equal(typeof action.toolResult, "string");
        ok(!hasInvisible(action.toolResult), action.toolResult);
      }
    }),
    runs(),
  );
});
