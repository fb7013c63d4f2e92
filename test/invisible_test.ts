// Invisible characters never reach the model hidden (they could carry instructions it would read
// and a person would not see): one definition, used by the listing, search results, the echoed
// query, server names, ids and the JSON of describe.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { type BridgeAction, Injector, McpCatalog } from "../mod.ts";
import { routeInSession } from "../src/session/session_route.ts";
import { MemorySessionStore } from "../src/session/memory_store.ts";
import { sha256Hex } from "../src/canonical_json.ts";
import { hasInvisible } from "../src/untrusted.ts";

// Each of these hides text or makes two strings look the same.
const HIDDEN = [
  "\u{E0049}\u{E0047}\u{E004E}", // tag characters: hidden ASCII "IGN"
  "\u061C",
  "\u180E",
  "\u034F",
  "\uFE00",
  "\uFE0F",
  "\u3164",
  "\u2800",
  "\u202E",
  "\u200B",
  "\uFEFF",
  "\u115F",
  "\uFFA0",
  "\u2066",
];
const h = HIDDEN.join("");

const catalog = new McpCatalog([
  {
    server: `files${h}`,
    name: "read",
    description: `Reads a file.${h} Returns text${h}.`,
    inputSchema: {
      type: "object",
      properties: { [`pa${h}th`]: { type: "string", description: `the path${h}` } },
    },
  },
  {
    server: "files",
    name: `re\u200Bad`,
    description: "Reads too",
    inputSchema: { type: "object" },
  },
  { server: "files", name: "read", description: "Plain read", inputSchema: { type: "object" } },
], { servers: [{ server: "files", title: `Files${h}`, description: `Local files.${h}` }] });

function texts(action: BridgeAction): string {
  return "toolResult" in action && typeof action.toolResult === "string" ? action.toolResult : "";
}

function noInvisible(text: string, where: string): void {
  ok(!hasInvisible(text), `${where} shows an invisible character: ${JSON.stringify(text)}`);
}

Deno.test("every disclosure level's prompt is free of invisible characters", () => {
  for (const level of ["manifest", "brief", "names", "inventory"] as const) {
    const disclosure = level === "inventory" ? [level] : [level, "inventory" as const];
    const injection = new Injector(catalog, { disclosure }).inject()!;
    equal(injection.mode, level);
    noInvisible(injection.prompt, level);
  }
});

Deno.test("search results, the echoed query and a miss are free of invisible characters", () => {
  const injector = new Injector(catalog);
  noInvisible(texts(injector.route({ action: "search", query: `read${h} a file` })), "search");
  noInvisible(texts(injector.route({ action: "search", query: `zzzz${h}` })), "miss");
});

Deno.test("ids that differ only in zero-width characters look different everywhere", () => {
  const injector = new Injector(catalog);
  const prompt = injector.inject()!.prompt;
  match(prompt, /"re\\u200bad"|files\/re\\u200bad/);
  const unknown = texts(injector.route({ action: "describe", name: "files/readd" }));
  noInvisible(unknown, "closest ids");
  match(unknown, /"files\/re\\u200bad"/);
  match(unknown, /"files\/read"/);
  const echoed = texts(injector.route({ action: "describe", name: `files/x\u200By` }));
  noInvisible(echoed, "echoed name");
  match(echoed, /"files\/x\\u200by"/);
});

Deno.test("describe escapes invisible characters in the schema as \\uXXXX and keeps it exact", () => {
  const injector = new Injector(catalog);
  const id = `files${h}/read`;
  const action = injector.route({ action: "describe", name: id });
  equal(action.action, "describe");
  const text = texts(action);
  noInvisible(text, "describe");
  const schema = JSON.parse(text.split("\n")[1]!.replace(/^Input schema: /, ""));
  deepEqual(schema, catalog.get(id)!.inputSchema);
});

Deno.test("a describe_first refusal carries the schema without invisible characters", async () => {
  const injector = new Injector(catalog);
  const id = `files${h}/read`;
  const routed = await routeInSession(injector, { action: "execute", name: id }, {
    store: new MemorySessionStore(),
    key: { tenant: "", session: "s" },
    catalogHash: "c",
    hash: sha256Hex,
  });
  if (!routed.ok) throw routed.error;
  const action = routed.value;
  equal(action.action === "error" && action.code, "describe_first");
  noInvisible(texts(action), "describe_first");
  const line = texts(action).split("\n").find((l) => l.startsWith("Input schema: "))!;
  deepEqual(JSON.parse(line.slice("Input schema: ".length)), catalog.get(id)!.inputSchema);
});
