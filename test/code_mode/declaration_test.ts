import { equal, ok } from "node:assert/strict";
import { declaration, MAX_DECLARATION_CHARS } from "../../src/code_mode/declaration.ts";
import type { McpTool } from "../../mod.ts";

const tool = (inputSchema: Record<string, unknown>, outputSchema?: Record<string, unknown>) =>
  ({
    server: "s",
    name: "t",
    description: "",
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
  }) as McpTool;

Deno.test("declaration() writes the arguments and the structured result as TypeScript", () => {
  equal(
    declaration(
      "s/t",
      tool({
        type: "object",
        properties: {
          path: { type: "string" },
          "max-depth": { type: "integer" },
          mode: { enum: ["a", "b"] },
          tags: { type: "array", items: { type: "string" } },
          opts: { type: "object", additionalProperties: { type: "number" } },
          any: {},
          maybe: { type: ["string", "null"] },
        },
        required: ["path"],
      }, {
        type: "object",
        properties: { entries: { type: "array", items: { $ref: "#/$defs/entry" } } },
        required: ["entries"],
        $defs: { entry: { type: "object", properties: { name: { type: "string" } } } },
      }),
    ),
    'For code: await call("s/t", args: { path: string; "max-depth"?: number; mode?: "a" | "b"; ' +
      "tags?: string[]; opts?: Record<string, number>; any?: unknown; maybe?: string | null }): " +
      "Promise<{ entries: Array<{ name?: string }> }>",
  );
});

Deno.test("a tool without an output schema returns the text or the content blocks", () => {
  equal(
    declaration("s/t", tool({ type: "object" })),
    'For code: await call("s/t", args: Record<string, unknown>): Promise<string | unknown[]>',
  );
});

Deno.test("a recursive schema ends in unknown, and a wide one in a bounded line", () => {
  const recursive = declaration(
    "s/t",
    tool({
      type: "object",
      properties: { node: { $ref: "#" } },
    }),
  );
  ok(recursive.includes("unknown"), recursive);
  const properties = Object.fromEntries(
    Array.from({ length: 2000 }, (_, i) => [`field_${i}`, {
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 50 }, (_, j) => [`inner_${j}`, { $ref: "#/properties/field_0" }]),
      ),
    }]),
  );
  const wide = declaration("s/t", tool({ type: "object", properties }));
  ok(wide.length <= MAX_DECLARATION_CHARS + 200, `${wide.length} characters`);
  ok(wide.includes("more */") || wide.endsWith("…"), wide.slice(-80));
});

Deno.test("names and values from the schema are escaped, invisible characters shown", () => {
  const line = declaration(
    "s/t",
    tool({
      type: "object",
      properties: { "a\u202eb": { const: 'x"y' } },
    }),
  );
  ok(line.includes('"a\\u202eb"?: "x\\"y"'), line);
});
