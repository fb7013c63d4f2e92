/**
 * The bridge's JSON Schemas against real results: every structured result the gateway sends, and
 * every search match the core and `/v1/route` give, follows the declared schema, names no field
 * the schema leaves out, and agrees with the HTTP API's zod schema of the same shape.
 *
 * @module
 */

import { deepEqual, ok } from "node:assert/strict";
import { Injector, McpCatalog, type McpTool, type ToolMatch } from "../../mod.ts";
import { errorAction } from "../../src/bridge/action.ts";
import {
  BRIDGE_OUTPUT_SCHEMA,
  LISTED_OUTPUT_SCHEMA,
  TOOL_MATCH_SCHEMA,
} from "../../src/bridge/output_schema.ts";
import { estimateTokens } from "../../src/tokens.ts";
import { actionResult, failureResult, stateless } from "../../src/gateway/results.ts";
import { executeResult } from "../../src/gateway/tool_calls.ts";
import { createApp } from "../../src/http/app.ts";
import { httpSchemas } from "../../src/http/schemas.ts";
import { DEFAULT_SETTINGS } from "../../src/http/settings.ts";
import { validateArguments } from "../../src/schema/validate.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { realServerTools } from "../_data.ts";
import { client } from "../http/_client.ts";

const tools = realServerTools();
const injector = new Injector(new McpCatalog(tools));
const schemas = httpSchemas(DEFAULT_SETTINGS);

// A schema as a tool's input schema, so the project's own validator checks values against it.
const asTool = (schema: Readonly<Record<string, unknown>>): McpTool => ({
  server: "schema",
  name: "check",
  description: "",
  inputSchema: { ...schema },
});
const outputTool = asTool(BRIDGE_OUTPUT_SCHEMA);
const matchTool = asTool(TOOL_MATCH_SCHEMA);

// Each key of a value, as JSON pointers into it, where the schema has no `properties` for it.
function undeclared(value: unknown, schema: Record<string, unknown>, at = ""): string[] {
  if (Array.isArray(value)) {
    const items = schema.items as Record<string, unknown> | undefined;
    return items ? value.flatMap((item, i) => undeclared(item, items, `${at}/${i}`)) : [];
  }
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (typeof value !== "object" || value === null || properties === undefined) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    Object.hasOwn(properties, key)
      ? undeclared(inner, properties[key]!, `${at}/${key}`)
      : [`${at}/${key}`]
  );
}

function structuredOutputs(): Record<string, unknown>[] {
  const [first] = tools;
  ok(first);
  const id = `${first.server}/${first.name}`;
  const routed = [
    injector.route({ action: "search", query: "create an issue" }),
    injector.route({ action: "search", query: "" }),
    injector.route({ action: "search", query: "zzzqqq xyzzy" }),
    injector.route({ action: "describe", name: id }),
    injector.route({ action: "describe", name: "nowhere/nothing" }),
    injector.route("{not json"),
    stateless(injector, { action: "execute", name: id, arguments: { "": [] } }),
    errorAction("describe_first", "describe it first", "Error describe_first"),
  ];
  const bridged = routed.flatMap((action) =>
    action.action === "execute" ? [] : [actionResult(action)]
  );
  bridged.push(
    executeResult(id, { content: [], structuredContent: { n: 1 } }),
    executeResult(id, { content: [] }),
    failureResult(id, "tool_error", "the server failed", true),
  );
  return bridged.map((result) => result.structuredContent as Record<string, unknown>);
}

Deno.test("every structured result of the gateway's bridge follows BRIDGE_OUTPUT_SCHEMA", () => {
  const outputs = structuredOutputs();
  deepEqual(
    [...new Set(outputs.map((output) => output.action))].sort(),
    ["describe", "error", "execute", "search"],
  );
  for (const output of outputs) {
    deepEqual(validateArguments(outputTool, output), [], JSON.stringify(output).slice(0, 300));
  }
});

Deno.test("the listed output schema accepts every result the full one does, at a quarter of its tokens", () => {
  const listed = asTool(LISTED_OUTPUT_SCHEMA);
  for (const output of structuredOutputs()) {
    deepEqual(validateArguments(listed, output), [], JSON.stringify(output).slice(0, 300));
  }
  const properties = (schema: Readonly<Record<string, unknown>>) =>
    schema.properties as Record<string, Record<string, unknown>>;
  // The same fields, each with the full schema's type (and values), nothing nested.
  deepEqual(
    Object.entries(properties(LISTED_OUTPUT_SCHEMA)),
    Object.entries(properties(BRIDGE_OUTPUT_SCHEMA)).map(([name, full]) => [
      name,
      {
        ...(full.type === undefined ? {} : { type: full.type }),
        ...(full.enum === undefined ? {} : { enum: full.enum }),
      },
    ]),
  );
  const tokens = (schema: unknown) => estimateTokens(JSON.stringify(schema));
  ok(tokens(LISTED_OUTPUT_SCHEMA) * 4 <= tokens(BRIDGE_OUTPUT_SCHEMA));
});

Deno.test("the gateway's structured results name no field that BRIDGE_OUTPUT_SCHEMA leaves out", () => {
  for (const output of structuredOutputs()) {
    deepEqual(undeclared(output, BRIDGE_OUTPUT_SCHEMA), [], JSON.stringify(output).slice(0, 300));
  }
});

Deno.test("search matches of the core and of /v1/route follow TOOL_MATCH_SCHEMA and the zod ToolMatch alike", async () => {
  const app = createApp({ store: new MemorySessionStore() });
  const api = client(async (path, init) => await app.request(path, init));
  const queries = ["create an issue", "read a file", "search the web", "take a screenshot"];
  const matches: ToolMatch[] = [];
  for (const query of queries) {
    const core = injector.route({ action: "search", query, limit: 10 });
    if (core.action === "search") matches.push(...core.matches);
    const http = await api.post("/v1/route", {
      catalog: tools,
      arguments: { action: "search", query, limit: 10 },
    });
    const body = schemas.RouteResult.parse(http.body);
    if (body.action === "search") matches.push(...body.matches);
  }
  ok(matches.length > 20, `${matches.length} matches`);
  for (const match of matches) {
    deepEqual(validateArguments(matchTool, { ...match }), [], match.id);
    deepEqual(undeclared(match, TOOL_MATCH_SCHEMA), [], match.id);
    deepEqual(schemas.ToolMatch.parse(match), match, match.id);
  }
});

Deno.test("TOOL_MATCH_SCHEMA and the HTTP API's zod ToolMatch name the same required fields", () => {
  const zodFields = Object.keys(schemas.ToolMatch.shape).sort();
  deepEqual(Object.keys(TOOL_MATCH_SCHEMA.properties as object).sort(), zodFields);
  deepEqual([...TOOL_MATCH_SCHEMA.required as string[]].sort(), zodFields);
});
