import { deepEqual, equal, ok } from "node:assert/strict";
import { bridgeParameters, bridgeTool } from "../../src/bridge/tool.ts";

const options = { bridgeName: "tools", maxSearchLimit: 12, searchDefaultLimit: 4 };

Deno.test("bridgeTool() emits the OpenAI function format", () => {
  const t = bridgeTool({ ...options, toolFormat: "openai" });
  deepEqual(Object.keys(t), ["type", "function"]);
  if (!("function" in t)) throw new Error("not openai");
  equal(t.type, "function");
  equal(t.function.name, "tools");
  deepEqual(t.function.parameters, bridgeParameters(options));
});

Deno.test("bridgeTool() emits the Anthropic and MCP formats", () => {
  deepEqual(Object.keys(bridgeTool({ ...options, toolFormat: "anthropic" })), [
    "name",
    "description",
    "input_schema",
  ]);
  deepEqual(Object.keys(bridgeTool({ ...options, toolFormat: "mcp" })), [
    "name",
    "description",
    "inputSchema",
  ]);
});

Deno.test("bridgeParameters() declares the actions and the limits", () => {
  const p = bridgeParameters(options) as {
    properties: Record<string, Record<string, unknown>>;
    required: string[];
  };
  deepEqual(p.properties.action?.enum, ["search", "describe", "execute", "more"]);
  deepEqual(Object.keys(p.properties), ["action", "query", "limit", "name", "arguments", "ref"]);
  equal(p.properties.limit?.minimum, 1);
  equal(p.properties.limit?.maximum, 12);
  ok(String(p.properties.limit?.description).includes("4"));
  equal(p.properties.arguments?.type, "object");
  deepEqual(p.required, ["action"]);
});

Deno.test("the search query asks, in one sentence, for the words a tool would use", () => {
  const p = bridgeParameters(options) as { properties: Record<string, { description?: string }> };
  const text = p.properties.query?.description ?? "";
  // Models tend to search in the user's phrasing; tool texts name the action and its object.
  ok(/words a tool would use for the action and object/.test(text), text);
  equal(text.split(/[.;!?]\s/).length, 1);
});

Deno.test("the bridge tool's description teaches the three actions", () => {
  const t = bridgeTool({ ...options, toolFormat: "mcp" });
  if (!("inputSchema" in t)) throw new Error("not mcp");
  for (const word of ["search", "describe", "execute", "server/tool"]) {
    ok(t.description.includes(word), word);
  }
});

Deno.test("the bridge tool's description says the result ceiling in one sentence, or nothing for 0", () => {
  const described = (maxResultTokens: number) => {
    const t = bridgeTool({ ...options, toolFormat: "mcp", resultCeilingTokens: maxResultTokens });
    return "inputSchema" in t ? t.description : "";
  };
  const sentence = "Answers over 10,000 tokens are cut; more gets the next part by the ref given.";
  ok(described(10_000).endsWith(` ${sentence}`));
  ok(!described(0).includes("are cut"));
  const unsaid = bridgeTool({ ...options, toolFormat: "mcp" });
  ok("inputSchema" in unsaid && !unsaid.description.includes("are cut"));
});
