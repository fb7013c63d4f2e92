// What the native definitions show of an input schema: annotations cleaned of invisible
// characters where they are schema keywords, every value the arguments must match as it is.
import { deepEqual, equal, ok } from "node:assert/strict";
import { Injector, McpCatalog, type McpTool } from "../../mod.ts";
import { claudeResolve, claudeTools, openAiResolve, openAiTools } from "../../src/native/mod.ts";

const ZW = "\u200B";
// Values under const, enum, default and examples that hold keys named like annotations, a
// property NAMED "description" and one named "title", and annotations at every schema position.
const tool: McpTool = {
  server: "s",
  name: "t",
  description: "",
  inputSchema: {
    type: "object",
    title: `Ti${ZW}tle`,
    properties: {
      description: { type: "string", description: `The${ZW} text`, default: `d${ZW}` },
      title: { const: { title: `kept${ZW}`, description: `kept${ZW}` }, title: `T${ZW}` },
      mode: {
        enum: [{ description: `a${ZW}b` }, `c${ZW}d`],
        examples: [{ title: `e${ZW}` }],
        default: { description: `a${ZW}b` },
      },
      list: { type: "array", items: { description: `I${ZW}tem`, type: "string" } },
      either: { anyOf: [{ description: `A${ZW}ny`, type: "string" }, { $ref: "#/$defs/d" }] },
    },
    $defs: { d: { description: `D${ZW}ef`, type: "integer" } },
    required: ["title", "mode"],
  },
};
const injector = new Injector(new McpCatalog([tool]));

const expected = {
  type: "object",
  title: "Title",
  properties: {
    description: { type: "string", description: "The text", default: `d${ZW}` },
    title: { const: { title: `kept${ZW}`, description: `kept${ZW}` }, title: "T" },
    mode: {
      enum: [{ description: `a${ZW}b` }, `c${ZW}d`],
      examples: [{ title: `e${ZW}` }],
      default: { description: `a${ZW}b` },
    },
    list: { type: "array", items: { description: "Item", type: "string" } },
    either: { anyOf: [{ description: "Any", type: "string" }, { $ref: "#/$defs/d" }] },
  },
  $defs: { d: { description: "Def", type: "integer" } },
  required: ["title", "mode"],
};

Deno.test("native schemas clean annotations at schema positions only, in both APIs", () => {
  const claude = claudeTools(injector);
  ok(claude.ok);
  deepEqual(claude.value[1]!.input_schema, expected);
  const openai = openAiTools(injector);
  ok(openai.ok);
  const namespace = openai.value[0]!;
  ok(namespace.type === "namespace");
  deepEqual(namespace.tools[0]!.parameters, expected);
});

Deno.test("the values a native model is shown are the values its call is checked against", async () => {
  const claude = claudeTools(injector);
  ok(claude.ok);
  const shown = claude.value[1]!.input_schema.properties as Record<string, Record<string, unknown>>;
  const args = { title: shown.title!.const, mode: (shown.mode!.enum as unknown[])[0] };
  const resolved = await claudeResolve(injector, {
    type: "tool_use",
    id: "u",
    name: "s__t",
    input: args,
  });
  equal(resolved.ok, true, JSON.stringify(resolved));
  const call = {
    type: "function_call" as const,
    name: "s__t",
    arguments: JSON.stringify({ ...args, mode: (shown.mode!.enum as unknown[])[1] }),
    call_id: "c",
  };
  equal((await openAiResolve(injector, call)).ok, true);
});
