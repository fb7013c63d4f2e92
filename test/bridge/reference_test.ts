// $ref targets are found by walking their JSON pointers when needed, not by registering every
// subschema under its pointer (each pointer holds all its ancestors' keys: the schema's size times
// its depth). The same subschemas resolve as before, escaped keys included.
import { equal, ok } from "node:assert/strict";
import { Injector, McpCatalog } from "../../mod.ts";

function injectorFor(inputSchema: Record<string, unknown>): Injector {
  return new Injector(new McpCatalog([{ server: "s", name: "t", description: "", inputSchema }]));
}

function verdict(injector: Injector, args: unknown): string {
  const action = injector.route({ action: "execute", name: "s/t", arguments: args });
  return action.action === "error" ? action.code : action.action;
}

Deno.test("$ref pointers resolve through properties, items, $defs and keys that need escaping", () => {
  const odd = "a/b~c %d é";
  const injector = injectorFor({
    type: "object",
    $defs: {
      [odd]: { type: "integer" },
      list: { items: [{ type: "string" }, { type: "boolean" }] },
    },
    properties: {
      a: { $ref: `#/$defs/${encodeURIComponent(odd.replace(/~/g, "~0").replace(/\//g, "~1"))}` },

      b: { $ref: "#/$defs/list/items/1" },
      c: { $ref: "#/properties/b" },
      d: { type: "object", properties: { "x/y": { type: "string" } } },
      e: { $ref: "#/properties/d/properties/x~1y" },
    },
  });
  equal(verdict(injector, { b: true, c: false, e: "s" }), "execute");
  equal(verdict(injector, { b: "no" }), "invalid_arguments");
  equal(verdict(injector, { e: 1 }), "invalid_arguments");
});

Deno.test("a $ref to a member dereference never descends into is unresolved, as before", () => {
  for (
    const ref of ["#/properties/q/enum/0", "#/properties/q/type", "#/nowhere", "#/$defs/x/items/9"]
  ) {
    const schema = {
      type: "object",
      $defs: { x: { items: [{}] } },
      properties: { q: { enum: [{ type: "string" }], type: "object" }, r: { $ref: ref } },
    };
    ok(
      (() => {
        try {
          const injector = injectorFor(schema);
          return verdict(injector, { r: 1 }) === "invalid_arguments";
        } catch {
          return true; // refused when the catalogue is built: the $ref does not resolve
        }
      })(),
      ref,
    );
  }
});

Deno.test("the first execute of a schema 60 levels deep with 100,000-character keys resolves", () => {
  // Its cost is a benchmark (bench/hostile.ts, "60 levels deep"): registering every subschema under
  // its pointer once cost some 250 times parsing the schema.
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 31; i++) {
    schema = { type: "object", properties: { [String(i).padEnd(100_000, "k")]: schema } };
  }
  equal(verdict(injectorFor(schema), {}), "execute");
});
