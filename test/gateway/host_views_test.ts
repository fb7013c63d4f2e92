// What each known host is shown: the overview where it delivers it, a first line of the
// instructions that stands alone (Codex shows only it until the tools load), nothing longer than
// the host keeps (Claude Code: 2,048 characters), and how long the gateway waits for its
// upstreams before it answers each host.
import { equal, match, ok } from "node:assert/strict";
import { McpCatalog } from "../../src/catalog.ts";
import { hostAnswerMs, KNOWN_HOSTS, knownHost } from "../../src/gateway/host_profiles.ts";
import { present } from "../../src/gateway/presentation.ts";

const servers = Array.from({ length: 9 }, (_, i) => `server${i}`);
const catalog = new McpCatalog(servers.flatMap((server) =>
  Array.from({ length: 30 }, (_, i) => ({
    server,
    name: `tool_${i}`,
    description: `Does thing ${i} of ${server} with a description long enough to matter`,
    inputSchema: { type: "object" },
  }))
));
const ready = servers.map((server) => ({ server, state: "ready" as const, tools: 30 }));
const host = (name: string) => KNOWN_HOSTS.find((h) => h.name === name)!;
const shown = (name: string, discovery = true) =>
  present(catalog, { pinned: [] }, ready, new Map(), "", {
    host: host(name),
    profile: name,
    discovery,
  });

Deno.test("the instructions' first line says what unfold is, how much, and how to reach it", () => {
  const first = shown("codex").instructions.split("\n")[0]!;
  equal(
    first,
    'unfold: 270 tools of 9 MCP servers (server0, server1, server2, server3 and 5 more); search and describe them with the discover (namespace mcp__unfold) tool (read-only), execute with the mcp (namespace mcp__unfold) tool; ids are "server/tool".',
  );
  // Within what Codex shows of it.
  ok(first.length <= 247, String(first.length));
  equal(shown("codex").instructions.split("\n")[1], "Every tool is listed below.");
  // A level that lists the servers alone says so on the next line.
  match(
    shown("claude-code").instructions.split("\n")[1]!,
    /^(The servers are listed below; search to find their tools|Every tool name is listed below, grouped by server)\.$/,
  );
  // One-tool mode names the bridge alone.
  match(
    shown("codex", false).instructions.split("\n")[0]!,
    /^unfold: 270 tools of 9 MCP servers \(.*\); search, describe and execute them with the mcp \(namespace mcp__unfold\) tool; ids are "server\/tool"\.$/,
  );
  // The rest is the catalogue, once.
  equal(shown("codex").instructions.split("<tool-catalogue").length - 1, 1);
});

Deno.test("Claude Code: instructions and descriptions within 2,048 characters, the overview in the instructions", () => {
  const claude = shown("claude-code");
  ok(claude.instructions.length <= 2_048, String(claude.instructions.length));
  ok(claude.instructions.includes("<tool-catalogue"));
  match(
    claude.instructions,
    /^unfold: 270 tools of 9 MCP servers .*; search and describe them with the mcp__unfold__discover tool/,
  );
  for (const tool of claude.tools) ok(tool.description.length <= 2_048, tool.name);
  ok(!claude.bridge.description.includes("<tool-catalogue"));
});

Deno.test("Gemini CLI: the overview in the bridge's description, the instructions the protocol", () => {
  const gemini = shown("gemini");
  ok(gemini.bridge.description.includes("<tool-catalogue"));
  ok(!gemini.instructions.includes("<tool-catalogue"));
  match(gemini.bridge.description, /^MCP tools are reached through this tool;/);
});

Deno.test("the gateway answers each host within the host's own wait for a server", () => {
  equal(hostAnswerMs(knownHost(undefined, "claude-code")), 2_500);
  equal(hostAnswerMs(knownHost(undefined, "codex")), 7_500);
  // Gemini CLI waits ten minutes: the gateway waits as long as a search waits for a listing.
  equal(hostAnswerMs(knownHost(undefined, "gemini")), 30_000);
  equal(hostAnswerMs(knownHost(undefined, "work")), 2_500);
});

Deno.test("before any server has listed, the first line names the servers still starting", () => {
  const starting = present(
    new McpCatalog([]),
    { pinned: [] },
    [
      { server: "everything", state: "starting", tools: 0 },
      { server: "memory", state: "starting", tools: 0 },
    ],
    new Map(),
    "",
    { host: host("codex"), profile: "codex" },
  );
  const [first, second] = starting.instructions.split("\n");
  match(
    first!,
    /^unfold: the tools of 2 MCP servers still starting \(everything, memory\); search and describe them with the discover \(namespace mcp__unfold\) tool \(read-only\), execute with the mcp \(namespace mcp__unfold\) tool; ids are "server\/tool"\.$/,
  );
  match(second!, /^Use the tools of MCP servers;/);
});
