import { equal, ok } from "node:assert/strict";
import { Gateway } from "../../src/gateway/gateway.ts";
import type { UpstreamPool, UpstreamStatus } from "../../src/gateway/pool/upstreams.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import type { McpTool } from "../../src/tool.ts";
import { hasInvisible } from "../../src/untrusted.ts";
import { lockEntry } from "../../src/gateway/trust/lock.ts";
import { gatewayHost } from "../../src/gateway/faces/server.ts";
import { MAX_NAME_CHARS } from "../../src/limits.ts";

// A pool held in memory: the tools and states a test gives, and calls that echo.
function pool(tools: McpTool[], statuses: UpstreamStatus[]): UpstreamPool {
  return {
    tools: () => tools,
    statuses: () => statuses,
    forward: (tool, args) =>
      Promise.resolve({
        content: [{ type: "text", text: `${tool.name} ${JSON.stringify(args)}` }],
      }),
    onChange: () => () => {},
    close: () => Promise.resolve(),
  };
}

function tool(name: string, description = `Tool ${name}`): McpTool {
  return {
    server: "s",
    name,
    description,
    inputSchema: { type: "object", properties: { text: { type: "string", description: name } } },
  };
}

Deno.test("the bridge's structured content escapes invisible characters as its text does", async () => {
  const sneaky = "Reads\u202e a file\u200b \u{E0041}";
  const gateway = await Gateway.open(
    pool([tool("reader", sneaky)], [{ server: "s", state: "ready", tools: 1 }]),
    { options: { pinned: [] }, store: new MemorySessionStore() },
  );
  for (
    const args of [{ action: "search", query: "reads file" }, {
      action: "describe",
      name: "s/reader",
    }]
  ) {
    const outcome = await gateway.call("mcp", args);
    ok(outcome.ok);
    const structured = JSON.stringify(outcome.result.structuredContent);
    equal(hasInvisible(structured), false, `${args.action}: ${structured}`);
    ok(structured.includes("\\\\u202e"), "the character is shown escaped, not dropped");
  }
  await gateway.close();
});

Deno.test("a full gateway session never fails the call: schemas keep coming", async () => {
  // Names as long as MCP allows: the session fills MAX_SESSION_BYTES after about 380 describes,
  // and each describe past that forgets.
  const tools = Array.from({ length: 500 }, (_, i) => tool(`${i}`.padStart(MAX_NAME_CHARS, "t")));
  const store = new MemorySessionStore();
  const gateway = await Gateway.open(
    pool(tools, [{ server: "s", state: "ready", tools: tools.length }]),
    { options: { pinned: [] }, store },
  );
  const session = { tenant: "", session: "long-chat" };
  for (const t of tools) {
    const outcome = await gateway.call("mcp", { action: "describe", name: `s/${t.name}` }, {
      session,
    });
    ok(outcome.ok);
    const text = (outcome.result.content?.[0] as { text: string }).text;
    ok(text.includes(`"description":"${t.name}"`), `describe s/${t.name}: ${text.slice(0, 200)}`);
  }
  const remembered = Object.keys(store.get(session)?.described ?? {}).length;
  ok(remembered > 0 && remembered <= tools.length - 100, `${remembered} schemas remembered`);
  const executed = await gateway.call("mcp", {
    action: "execute",
    name: `s/${tools.at(-1)!.name}`,
    arguments: { text: "hi" },
  }, { session });
  ok(executed.ok);
  equal(executed.result.isError, undefined);
  await gateway.close();
});

Deno.test("a live definition found approved is not compared with the lock again on each call", async () => {
  const base = tool("reader");
  let reads = 0;
  // The listing's tool object, as the pool keeps it until the server lists again.
  const live = new Proxy(base, {
    get: (target, key) => {
      if (key === "inputSchema") reads++;
      return Reflect.get(target, key);
    },
  });
  const lock = { version: 2 as const, tools: { "s/reader": lockEntry(base) } };
  const upstream: UpstreamPool = {
    ...pool([base], [{ server: "s", state: "ready", tools: 1 }]),
    forward: async (called, args, options) => {
      await options?.admit?.(live);
      return { content: [{ type: "text", text: `${called.name} ${JSON.stringify(args)}` }] };
    },
  };
  const gateway = await Gateway.open(upstream, {
    options: { pinned: [] },
    store: new MemorySessionStore(),
    trust: { mode: "notify", lock: () => lock, approve: "unfold approve" },
  });
  const execute = { action: "execute", name: "s/reader", arguments: { text: "hi" } };
  ok((await gateway.call("mcp", execute)).ok);
  const first = reads;
  ok(first > 0, "the first call judged the live definition");
  for (let i = 0; i < 5; i++) ok((await gateway.call("mcp", execute)).ok);
  equal(reads, first, "later calls reused the judgement");
  await gateway.close();
});

Deno.test("tools/list answered right after an upstream change reads the change", async () => {
  // The rebuild after a change is asynchronous: a host that lists right after a call failed on a
  // lost server must read the overview that names it lost, not the one before.
  const tools = [tool("a")];
  const statuses: UpstreamStatus[] = [{ server: "s", state: "ready", tools: 1 }];
  let changed = () => {};
  const gateway = await Gateway.open(
    { ...pool(tools, statuses), onChange: (listener) => (changed = listener, () => {}) },
    { options: { pinned: [] }, store: new MemorySessionStore() },
  );
  const host = gatewayHost(gateway, "0.0.0");
  statuses[0] = { server: "s", state: "lost", tools: 1, detail: "the server exited" };
  changed();
  const listed = await host.tools();
  ok(
    /Unavailable servers, whose tools cannot be called now: s \(lost/.test(
      listed[0]?.description ?? "",
    ),
    listed[0]?.description,
  );
  await gateway.close();
});
