// The SDK-free stdio server answers as the MCP SDK's server did: the same lines go to the SDK
// `Server` of `hostServer()` (served by `serveStdio` over the same wire) and to `serveToolHost`,
// over the same fake host, and what each writes back must be equal.
import { deepEqual } from "node:assert/strict";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { hostServer } from "../../src/gateway/face.ts";
import { serveToolHost } from "../../src/gateway/stdio_server.ts";
import { openStdioWire, transportOf } from "../../src/gateway/stdio_wire.ts";
import type { ToolHost } from "../../src/gateway/tool_host.ts";
import fc from "fast-check";
import { toolResult } from "./_tool_results.ts";

type Step = string | "change" | "close";

// Results the host answers by name (`r0`, `r1`, …), for the property test below.
let generated: unknown[] = [];

function fakeHost(): ToolHost & { change(): void } {
  const listeners = new Set<() => void>();
  return {
    serverInfo: { name: "fake", version: "1.0.0" },
    instructions: () => "Use echo",
    tools: () => [{ name: "echo", description: "Echoes", inputSchema: { type: "object" } }],
    call: (name, args, call) => {
      if (name === "slow") {
        // Answers only when cancelled: the answer must then never be written.
        return new Promise((resolve) =>
          call.signal.addEventListener(
            "abort",
            () => resolve({ ok: true, result: { content: [{ type: "text", text: "late" }] } }),
          )
        );
      }
      if (name === "bare") return Promise.resolve({ ok: true, result: {} as never });
      if (name === "throws") {
        return Promise.reject(Object.assign(new Error("boom"), { code: -32_001, data: { x: 1 } }));
      }
      if (name === "crash") return Promise.reject(new TypeError("crashed"));
      if (name === "extra") {
        return Promise.resolve({
          ok: true,
          result: {
            content: [{ type: "text", text: "x", extra: 1, _meta: { a: 1 } }, {
              type: "resource",
              resource: { uri: "u", text: "t", extra: 2 },
              extra: 3,
            }],
            structuredContent: { a: [1] },
            isError: false,
            extra: 4,
            _meta: { b: 1 },
          } as never,
        });
      }
      if (name === "bad") {
        return Promise.resolve({ ok: true, result: { content: [{ type: "x" }] } as never });
      }
      if (/^r\d+$/.test(name)) {
        return Promise.resolve({ ok: true, result: generated[Number(name.slice(1))] as never });
      }
      if (name !== "echo") {
        return Promise.resolve({ ok: false, message: `There is no tool "${name}"` });
      }
      call.onProgress?.({ progress: 1, total: 2 });
      call.onProgress?.({ progress: 2, total: 2, message: "done" });
      return Promise.resolve({
        ok: true,
        result: { content: [{ type: "text", text: JSON.stringify(args) }] },
      });
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    change: () => listeners.forEach((listener) => listener()),
  };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 1));
};

async function exchange(steps: Step[], sdk: boolean): Promise<unknown[]> {
  const host = fakeHost();
  const input = new TransformStream<Uint8Array, Uint8Array>();
  const writer = input.writable.getWriter();
  const written: unknown[] = [];
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => {
      for (const line of new TextDecoder().decode(chunk).split("\n")) {
        if (line !== "") written.push(JSON.parse(line));
      }
    },
  });
  const wire = openStdioWire(input.readable, output);
  const served = sdk
    ? serveStdio(() => hostServer(host, "s"), { transport: transportOf(wire) as never })
    : serveToolHost(host, transportOf(wire), { session: "s" });
  for (const step of steps) {
    if (step === "change") host.change();
    else if (step === "close") await served.close();
    else await writer.write(new TextEncoder().encode(`${step}\n`));
    await settle();
  }
  await writer.close().catch(() => {});
  await wire.ended;
  await settle();
  return written;
}

const rpc = (id: unknown, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
const note = (method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
};
const modern = (id: unknown, method: string, params: Record<string, unknown> = {}) =>
  rpc(id, method, { ...params, _meta: { ...envelope, ...(params._meta as object) } });
const init = (id: unknown, version: unknown) =>
  rpc(id, "initialize", {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: "c", version: "1" },
  });

const SEQUENCES: Record<string, Step[]> = {
  "2025-era handshake, each version": [
    init(1, "2024-11-05"),
    init(2, "2025-03-26"),
    init(3, "2025-06-18"),
    init(4, "2025-11-25"),
    init(5, "1999-01-01"),
    init(6, 7),
    rpc(7, "initialize", {}),
    rpc(8, "initialize"),
    rpc(9, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: [],
      clientInfo: { name: 1 },
    }),
    note("notifications/initialized"),
    rpc(10, "ping"),
    rpc(11, "logging/setLevel", { level: "info" }),
    rpc(12, "logging/setLevel", { level: "loud" }),
    rpc(13, "logging/setLevel"),
    "change",
    rpc(14, "tools/list"),
    rpc(15, "tools/list", { cursor: 3 }),
  ],
  "requests before initialize and hostile ones": [
    rpc(1, "tools/list"),
    rpc("a", "tools/call"),
    rpc(2, "tools/call", {}),
    rpc(3, "tools/call", { name: 5, arguments: [] }),
    rpc(4, "tools/call", { name: "nope" }),
    rpc(5, "tools/call", { name: "echo", arguments: { a: 1 }, _meta: { progressToken: "t" } }),
    rpc(6, "tools/call", { name: "echo", _meta: { progressToken: 0 } }),
    rpc(7, "tools/call", { name: "bare" }),
    rpc(8, "tools/call", { name: "echo", requestState: 5 }),
    rpc(9, "foo/bar"),
    rpc(10, "resources/list"),
    rpc(11, "server/discover"),
    rpc(-0, "ping"),
    rpc(Number.MAX_SAFE_INTEGER, "ping"),
    rpc(2 ** 53 + 2, "ping"),
    "this is not JSON",
    '{"jsonrpc":"1.0","id":12,"method":"ping"}',
    '[{"jsonrpc":"2.0","id":13,"method":"ping"}]',
    '{"jsonrpc":"2.0","id":14,"method":"ping","extra":1}',
    '{"jsonrpc":"2.0","id":15,"result":{}}',
    '{"jsonrpc":"2.0","id":16,"error":{"code":1,"message":"x"}}',
    note("notifications/unknown"),
    note("notifications/progress", { progressToken: 1, progress: 1 }),
    "change",
  ],
  "duplicate initialize, list_changed after initialized, cancellation": [
    init(1, "2025-06-18"),
    init(2, "2025-11-25"),
    "change",
    note("notifications/initialized"),
    "change",
    rpc(3, "tools/call", { name: "slow" }),
    note("notifications/cancelled", { requestId: 3, reason: "no" }),
    rpc(4, "tools/call", { name: "echo", _meta: { progressToken: 9 } }),
    modern(5, "tools/list"),
  ],
  "a host that throws, and a client repeating initialized": [
    init(1, "2025-06-18"),
    note("notifications/initialized"),
    note("notifications/initialized"),
    "change",
    rpc(2, "tools/call", { name: "throws" }),
    rpc(3, "tools/call", { name: "crash" }),
  ],
  "a whole 2025-era session in one read": [
    [
      init(1, "2025-06-18"),
      note("notifications/initialized"),
      rpc(2, "tools/list"),
      rpc(3, "tools/call", { name: "echo", arguments: { b: 2 }, _meta: { progressToken: "p" } }),
      rpc(4, "tools/call", { name: "nope" }),
      rpc(5, "ping"),
    ].join("\n"),
  ],
  "a discover probe and a 2025-era initialize in one read": [
    [modern(1, "server/discover"), init(2, "2025-03-26"), rpc(3, "tools/list")].join("\n"),
  ],
  "a 2026-07-28 session in one read": [
    [
      modern(1, "server/discover"),
      modern(2, "tools/list"),
      modern(3, "tools/call", { name: "echo", _meta: { progressToken: 1 } }),
      modern(4, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    ].join("\n"),
    "close",
  ],
  "hostile initialize members": [
    rpc(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { roots: { listChanged: "x" } },
      clientInfo: { name: "c", version: "1" },
    }),
    rpc(2, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { sampling: 5 },
      clientInfo: { name: "c", version: "1" },
    }),
    rpc(3, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { elicitation: 5 },
      clientInfo: { name: "c", version: "1" },
    }),
    rpc(4, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { experimental: 5 },
      clientInfo: { name: "c", version: "1" },
    }),
    rpc(5, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", version: "1", title: 5 },
    }),
    rpc(6, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", version: "1", icons: [{}] },
    }),
    rpc(7, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { unknown: 5 },
      clientInfo: { name: "c", version: "1", websiteUrl: 1 },
    }),
    rpc(8, "tools/call", { name: "echo", task: 5 }),
    rpc(9, "tools/call", { name: "echo", arguments: null }),
    rpc(10, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { tasks: 5, extensions: 5 },
      clientInfo: { name: "c", version: "1" },
    }),
  ],
  "deeper hostile initialize members": [
    ...[
      { experimental: { a: 5 } },
      { elicitation: { form: 5 } },
      { elicitation: { form: { applyDefaults: "x" }, url: [] } },
      { elicitation: {} },
      { tasks: { requests: { sampling: { createMessage: 5 } } } },
      { sampling: { context: [], tools: null } },
    ].map((capabilities, i) =>
      rpc(i, "initialize", {
        protocolVersion: "2025-06-18",
        capabilities,
        clientInfo: { name: "c", version: "1" },
      })
    ),
    rpc(10, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", icons: [{ src: "s", theme: "dim", sizes: [1] }] },
    }),
    rpc(11, "tools/call", { name: "echo", task: { ttl: "x" } }),
  ],
  "hostile envelopes at the opening": [
    rpc(1, "tools/list", {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { roots: 5 },
      },
    }),
    rpc(2, "tools/list", {
      _meta: { ...envelope, "io.modelcontextprotocol/clientInfo": { name: "c" } },
    }),
    rpc(3, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
      _meta: { ...envelope, "io.modelcontextprotocol/clientCapabilities": 5 },
    }),
  ],
  "results with members the schema does not name": [
    rpc(1, "tools/call", { name: "extra" }),
    modern(2, "tools/call", { name: "extra" }),
  ],
  "hostile envelope members": [
    modern(1, "tools/list", {
      _meta: { "io.modelcontextprotocol/clientCapabilities": { roots: 5 } },
    }),
    modern(2, "tools/list", {
      _meta: { "io.modelcontextprotocol/clientInfo": { name: "c", version: "1", title: 1 } },
    }),
    modern(3, "tools/list", {
      _meta: { "io.modelcontextprotocol/clientCapabilities": { sampling: { tools: 5 } } },
    }),
    modern(4, "tools/call", { name: "echo", task: 5 }),
    modern(5, "tools/list", { _meta: { "io.modelcontextprotocol/logLevel": "loud" } }),
    modern(6, "tools/list", { _meta: { "io.modelcontextprotocol/clientInfo": { icons: 5 } } }),
    modern(7, "tools/call", { name: "echo", requestState: 5 }),
    modern(8, "tools/call", { name: "echo", requestState: "s", inputResponses: {} }),
  ],
  "2026-07-28: discover, then requests": [
    modern(1, "server/discover"),
    modern(2, "tools/list"),
    rpc(3, "tools/list"),
    modern(4, "tools/call", { name: "echo", arguments: { a: 1 }, _meta: { progressToken: 5 } }),
    modern(5, "ping"),
    init(6, "2025-06-18"),
    rpc(16, "initialize", { capabilities: {} }),
    modern(7, "logging/setLevel", { level: "info" }),
    modern(8, "subscriptions/listen"),
    modern(9, "tools/call", { name: "x" }),
    rpc(10, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2030-01-01" } }),
    rpc(11, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": 2 } }),
    modern(12, "foo"),
    modern(13, "tools/call", { name: "bare" }),
    modern(14, "tools/call", {}),
    note("notifications/initialized"),
    "change",
    modern(15, "tools/call", { name: "slow" }),
    note("notifications/cancelled", { requestId: 15 }),
  ],
  "2026-07-28: listen, cancel and close": [
    modern(1, "tools/list"),
    modern(2, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    modern(3, "subscriptions/listen", { notifications: { promptsListChanged: true } }),
    modern(4, "subscriptions/listen", { notifications: { toolsListChanged: "yes" } }),
    rpc(5, "subscriptions/listen", { notifications: {} }),
    note("notifications/cancelled", { requestId: 3 }),
    "close",
  ],
  "2026-07-28: a discover probe, then a 2025-era client": [
    modern(1, "server/discover"),
    note("notifications/cancelled", { requestId: 99 }),
    modern(2, "server/discover"),
    init(3, "2025-06-18"),
    modern(4, "tools/list"),
    rpc(5, "ping"),
  ],
  "opening envelopes that are wrong": [
    rpc(1, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }),
    rpc(2, "tools/list", {
      _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2031-01-01" },
    }),
    rpc(3, "tools/list", {
      _meta: { ...envelope, "io.modelcontextprotocol/clientInfo": { name: 1 } },
    }),
    rpc(4, "tools/list", { _meta: { ...envelope, "io.modelcontextprotocol/logLevel": "loud" } }),
    note("notifications/initialized", { _meta: { "io.modelcontextprotocol/protocolVersion": 1 } }),
    '{"jsonrpc":"2.0","id":5,"result":{}}',
    rpc(6, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
      _meta: envelope,
    }),
  ],
  "a malformed result and a 2025-era request on a pinned modern connection": [
    modern(1, "tools/call", { name: "bad" }),
    rpc(2, "ping"),
    rpc(3, "tools/call", { name: "echo" }),
  ],
};

// The one text not matched: why a malformed result was refused (zod's issue list); the gateway
// never sends one (`tool_calls.ts` turns it into a tool error first).
const MALFORMED = "Invalid tools/call result: ";
function normalised(messages: unknown[]): unknown[] {
  return messages.map((message) => {
    const error = (message as { error?: { message: string } }).error;
    if (error === undefined || !error.message.startsWith(MALFORMED)) return message;
    return { ...(message as object), error: { ...error, message: MALFORMED } };
  });
}

// Lines read at once are served concurrently: answers to different requests may interleave in
// any order (JSON-RPC promises none), so a burst is compared per request, in order within each:
// its progress, then its answer.
function perRequest(messages: unknown[]): Record<string, unknown[]> {
  const streams: Record<string, unknown[]> = {};
  for (const message of messages) {
    const m = message as { id?: unknown; params?: { progressToken?: unknown } };
    const key = m.id !== undefined
      ? `id ${JSON.stringify(m.id)}`
      : m.params?.progressToken !== undefined
      ? `progress ${JSON.stringify(m.params.progressToken)}`
      : "notifications";
    (streams[key] ??= []).push(message);
  }
  return streams;
}

for (const [name, steps] of Object.entries(SEQUENCES)) {
  Deno.test(`the SDK-free stdio server answers as the SDK's: ${name}`, async () => {
    const expected = normalised(await exchange(steps, true));
    const actual = normalised(await exchange(steps, false));
    const burst = steps.some((step) => step.includes("\n"));
    if (burst) deepEqual(perRequest(actual), perRequest(expected));
    else deepEqual(actual, expected);
  });
}

Deno.test("the SDK-free stdio server sends generated tool results as the SDK does, in both eras", async () => {
  generated = fc.sample(toolResult, { numRuns: 300, seed: 31 });
  const calls = (call: (id: number, name: string) => string) =>
    generated.map((_, i) => call(i, `r${i}`)).join("\n");
  for (
    const steps of [
      [init("init", "2025-06-18"), calls((i, name) => rpc(i, "tools/call", { name }))],
      [calls((i, name) => modern(i, "tools/call", { name }))],
    ]
  ) {
    const expected = perRequest(normalised(await exchange(steps, true)));
    const actual = perRequest(normalised(await exchange(steps, false)));
    deepEqual(actual, expected);
    // Every call was answered, some with the result and some refused.
    const answers = generated.map((_, i) => expected[`id ${i}`]?.[0] as Record<string, unknown>);
    deepEqual(answers.every((answer) => answer !== undefined), true);
    deepEqual(answers.some((answer) => "error" in answer), true);
    deepEqual(answers.some((answer) => "result" in answer), true);
  }
});
