import { deepEqual, equal, match, ok } from "node:assert/strict";
import { approveTools } from "../../../src/cli/approve.ts";
import { checkTrust, heldMessage, shellWord } from "../../../src/gateway/trust/policy.ts";
import {
  DEFINITION_FIELDS,
  fieldChanges,
  type Lock,
  lockEntry,
  parseLock,
  review,
  serializeLock,
} from "../../../src/gateway/trust/lock.ts";
import type { McpTool } from "../../../src/tool.ts";

const tool: McpTool = {
  server: "s",
  name: "plain",
  title: "Plain",
  description: "Reads a file",
  inputSchema: { type: "object" },
  outputSchema: { type: "object" },
  annotations: { readOnlyHint: true },
  _meta: { "unfold/keywords": ["read"], "anthropic/searchHint": "files", "vendor/x": 1 },
};

// A lock file as unfold wrote it before version 2 (hashes of six fields, no _meta).
const V1 = await Deno.readTextFile(new URL("../_fixtures/unfold.lock.v1.json", import.meta.url));
const V1_TOOLS: McpTool[] = [
  { server: "s", name: "plain", description: "Reads a file", inputSchema: { type: "object" } },
  {
    server: "s",
    name: "meta",
    description: "Reads a file",
    inputSchema: { type: "object" },
    _meta: { "unfold/keywords": ["read"] },
  },
];

Deno.test("the lock covers every field served, forwarded or ranked on: a change to any one is named", async () => {
  deepEqual(
    [...DEFINITION_FIELDS],
    ["name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta"],
  );
  const lock: Lock = { version: 2, tools: { "s/plain": lockEntry(tool) } };
  deepEqual(await review([tool], lock), []);
  const pulls: [Partial<McpTool>, string][] = [
    [{ title: "Plain (and mail keys)" }, "title"],
    [{ description: "Reads a file\u200b" }, "description"],
    [{ inputSchema: { type: "object", properties: { to: { type: "string" } } } }, "inputSchema"],
    [{ outputSchema: { type: "object", properties: { x: {} } } }, "outputSchema"],
    [{ annotations: { readOnlyHint: false } }, "annotations"],
    [{ _meta: { ...tool._meta, "unfold/keywords": ["export all passwords"] } }, "_meta"],
    [{ _meta: { ...tool._meta, "anthropic/searchHint": "ssh keys" } }, "_meta"],
    [{ _meta: { ...tool._meta, "vendor/x": 2 } }, "_meta"],
  ];
  for (const [change, field] of pulls) {
    const [found] = await review([{ ...tool, ...change }], lock);
    deepEqual([found?.change, found?.fields], ["changed", [field]], field);
  }
  const [renamed] = await review([{ ...tool, name: "Plain" }], lock);
  equal(renamed?.change, "new");
});

Deno.test("fieldChanges shows both values with invisible characters escaped, and cuts long ones", async () => {
  const lock: Lock = { version: 2, tools: { "s/plain": lockEntry(tool) } };
  const [pulled] = await review([{ ...tool, description: "Reads a file\u200b\u202e" }], lock);
  deepEqual(fieldChanges(pulled!), [
    { field: "description", approved: '"Reads a file"', live: '"Reads a file\\u200b\\u202e"' },
  ]);
  const [long] = await review([{ ...tool, description: "x".repeat(10_000) }], lock);
  match(fieldChanges(long!, 100)[0]!.live!, /^"x{99}… \(9902 more characters\)$/);
  const [fresh] = await review([{ ...tool, name: "other" }], lock);
  equal(fieldChanges(fresh!).find((c) => c.field === "title")?.approved, null);
});

Deno.test("a version 1 lock still loads: its tools stay approved unless they carry _meta, which it never covered", async () => {
  const parsed = parseLock(V1);
  ok(parsed.ok);
  const lock = parsed.value;
  const found = await review(V1_TOOLS, lock);
  deepEqual(found.map((t) => [t.name, t.change, t.fields]), [["meta", "changed", ["_meta"]]]);
  // The old lock kept hashes only: the approved value cannot be shown, and says so.
  deepEqual(fieldChanges(found[0]!), [{
    field: "_meta",
    live: '{\n  "unfold/keywords": [\n    "read"\n  ]\n}',
  }]);
  const [pulled] = await review([{ ...V1_TOOLS[0]!, description: "Mail the keys" }], lock);
  deepEqual(pulled?.fields, ["description"]);
  // Approving one tool writes version 2; the other entries stay as they were.
  const approved = approveTools(lock, V1_TOOLS, ["s/meta"]);
  ok(approved.ok);
  const written = parseLock(serializeLock(approved.lock));
  ok(written.ok);
  equal(JSON.parse(serializeLock(approved.lock)).version, 2);
  deepEqual(await review(V1_TOOLS, written.value), []);
  ok("sha256" in written.value.tools["s/plain"]!);
});

Deno.test("a held tool's message says it awaits approval and gives a command that runs as printed", async () => {
  const trust = {
    mode: "pin" as const,
    lock: () => ({ version: 2 as const, tools: {} }),
    approve: `unfold approve --config ${shellWord("/tmp/my dir/mcp.json")}`,
    inspect: `unfold inspect --config ${shellWord("/tmp/my dir/mcp.json")}`,
  };
  const { held } = await checkTrust([tool], trust);
  const message = heldMessage(held.get("s/plain")!, trust);
  match(
    message,
    /"s\/plain" is new \(the user never approved it\), so it awaits the user's approval/,
  );
  ok(message.endsWith("`unfold approve --config '/tmp/my dir/mcp.json' s/plain`"), message);
  ok(message.includes("(review: `unfold inspect --config '/tmp/my dir/mcp.json'`)"), message);
});
