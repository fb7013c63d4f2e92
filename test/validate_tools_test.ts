import { deepEqual, equal, match } from "node:assert/strict";
import { InvalidCatalogError, McpCatalog, type McpTool } from "../mod.ts";
import { validateTools } from "../src/validate_tools.ts";

const tool = (
  name: string,
  inputSchema: Record<string, unknown> = { type: "object" },
): McpTool => ({
  server: "s",
  name,
  description: "",
  inputSchema,
});

Deno.test("validateTools keeps every valid tool and refuses each invalid one with its index and reason", () => {
  const list: unknown[] = [
    tool("ok"),
    tool("n".repeat(129)),
    tool("type", { type: "object", properties: { q: { type: 42 } } }),
    tool("ref", { type: "object", properties: { q: { $ref: "#/$defs/x" } } }),
    tool("regex", { type: "object", properties: { q: { type: "string", pattern: "(" } } }),
    tool("deep", {
      type: "object",
      properties: JSON.parse(`${'{"a":'.repeat(70)}1${"}".repeat(70)}`),
    }),
    tool("ok"),
    "not a tool",
    tool("hard", { type: "object", properties: { q: { type: "string", pattern: "^.{0,4096}$" } } }),
  ];
  const { accepted, refused } = validateTools(list);
  deepEqual(accepted.map((t) => t.name), ["ok", "hard"]);
  deepEqual(refused.map((r) => r.index), [1, 2, 3, 4, 5, 6, 7]);
  deepEqual(refused.map((r) => r.id), [
    undefined,
    "s/type",
    "s/ref",
    "s/regex",
    "s/deep",
    "s/ok",
    undefined,
  ]);
  for (const r of refused) {
    equal(r.error instanceof InvalidCatalogError, true);
    equal(r.reason, r.error.message);
    match(r.reason, new RegExp(`^Invalid catalog\\[${r.index}\\]`));
  }
  equal(refused[1]!.error.pointer, "/catalog/2/inputSchema/properties/q/type");
  match(refused[5]!.reason, /repeats an id/);
  // What it accepts builds a catalogue, which says what it leaves to the server.
  const catalog = new McpCatalog(accepted);
  deepEqual(catalog.warnings.map((w) => w.tool), ["s/hard"]);
});
