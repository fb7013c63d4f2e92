import { deepEqual, equal } from "node:assert/strict";
import { admitTools } from "../../src/gateway/quarantine.ts";
import type { McpTool } from "../../src/tool.ts";
import { validateTools } from "../../src/validate_tools.ts";

const tool = (
  name: string,
  inputSchema: Record<string, unknown> = { type: "object" },
): McpTool => ({
  server: "up",
  name,
  description: "",
  inputSchema,
});

Deno.test("the gateway quarantines exactly what the core's validateTools refuses, for the same rule", () => {
  const listed = [
    tool("good"),
    tool("typed", { type: "object", properties: { x: { type: 42 } } }),
    tool("good"),
    tool("x".repeat(200)),
    tool("other"),
  ];
  const { catalog, quarantined } = admitTools(listed);
  const { accepted, refused } = validateTools(listed);
  deepEqual(catalog.tools.map((t) => t.name), accepted.map((t) => t.name).sort());
  deepEqual(
    quarantined.map((q) => q.reason),
    refused.map(({ error }) => `"${error.field}" ${error.rule}`),
  );
  // A repeated name is refused by the core's rule, in the core's words.
  equal(quarantined[1]?.reason, '"name" repeats an id already in the catalogue');
  // Shown names stay bounded.
  equal(quarantined[2]?.name.length, 81);
});

Deno.test("an entry that is not a tool is quarantined, not thrown", () => {
  const { catalog, quarantined } = admitTools([null as unknown as McpTool, tool("kept")]);
  equal(catalog.size, 1);
  deepEqual(quarantined, [{
    server: "undefined",
    name: "undefined",
    reason: '"(entry)" must be an object',
  }]);
});
