/**
 * The gateway's side of code mode, in the unit stage: the harness in a `node:vm` context
 * (`VmSandbox`) over a pool whose upstream the test writes. What the real sandbox and servers do
 * is `code_mode_test.ts`'s; here, what the gateway adds: `run` offered only with a sandbox, the
 * answer's structured copy within the bridge's output schema, cancellation reaching the call,
 * the session's counters, a flagged tool's unapproved annotations, and the result ceiling.
 *
 * @module
 */

import { deepEqual, equal, match, ok } from "node:assert/strict";
import { BRIDGE_OUTPUT_SCHEMA } from "../../src/bridge/output_schema.ts";
import { readOnlyRefusal, unapprovedRefusal } from "../../src/code_mode/render.ts";
import { Gateway } from "../../src/gateway/gateway.ts";
import type { UpstreamPool } from "../../src/gateway/pool/upstreams.ts";
import type { TrustSource } from "../../src/gateway/trust/policy.ts";
import { lockEntry } from "../../src/gateway/trust/lock.ts";
import { validateArguments } from "../../src/schema/validate.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import type { McpTool } from "../../src/tool.ts";
import type { CallToolResultLike } from "../../src/tool_result.ts";
import { VmSandbox } from "../code_mode/_vm_sandbox.ts";

const READ: McpTool = {
  server: "a",
  name: "read",
  description: "Reads a value",
  inputSchema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  annotations: { readOnlyHint: true },
};
const WRITE: McpTool = {
  server: "a",
  name: "write",
  description: "Writes a value",
  inputSchema: { type: "object" },
};
const WAIT: McpTool = {
  server: "a",
  name: "wait",
  description: "Waits until cancelled",
  inputSchema: { type: "object" },
  annotations: { readOnlyHint: true },
};

// A pool over one server whose calls the test sees; `wait` answers only when cancelled.
function pool(tools: McpTool[] = [READ, WRITE, WAIT]) {
  const calls: { name: string; args: Record<string, unknown>; aborted?: boolean }[] = [];
  const waiting = Promise.withResolvers<void>();
  const upstream: UpstreamPool = {
    tools: () => tools,
    statuses: () => [{ server: "a", state: "ready", tools: tools.length }],
    forward: async (tool, args, options) => {
      await options?.admit?.(tools.find((t) => t.name === tool.name));
      const call: (typeof calls)[number] = { name: tool.name, args };
      calls.push(call);
      if (tool.name === "wait") {
        waiting.resolve();
        await new Promise<void>((resolve) =>
          options?.signal?.addEventListener("abort", () => resolve())
        );
        call.aborted = true;
        return { content: [{ type: "text", text: "stopped" }], isError: true };
      }
      return {
        content: [{ type: "text", text: `${tool.name} ${JSON.stringify(args)}` }],
        structuredContent: { value: `${args.key ?? ""}!` },
      } as CallToolResultLike;
    },
    onChange: () => () => {},
    close: () => Promise.resolve(),
  };
  return { upstream, calls, waiting: waiting.promise };
}

// The bridge's output schema as a tool's input schema, for the project's validator.
const OUTPUT_TOOL: McpTool = {
  server: "schema",
  name: "check",
  description: "",
  inputSchema: { ...BRIDGE_OUTPUT_SCHEMA },
};

async function run(gateway: Gateway, code: string, context = {}) {
  const outcome = await gateway.call("mcp", { action: "run", code }, context);
  ok(outcome.ok);
  return outcome.result;
}

const structured = (result: CallToolResultLike) =>
  result.structuredContent as {
    action: string;
    result: unknown;
    logs: string[];
    calls: { id: string; ok: boolean }[];
    error?: { code: string; message: string };
  };

Deno.test("run is offered where a sandbox runs it: read-only by default, off without one", async () => {
  const store = new MemorySessionStore();
  const options = { pinned: [] };
  const withSandbox = await Gateway.open(pool().upstream, {
    options,
    store,
    sandbox: new VmSandbox(),
  });
  const without = await Gateway.open(pool().upstream, { options, store });
  const all = await Gateway.open(pool().upstream, {
    options: { pinned: [], codeMode: "all" },
    store,
    sandbox: new VmSandbox(),
  });
  const off = await Gateway.open(pool().upstream, {
    options: { pinned: [], codeMode: "off" },
    store,
    sandbox: new VmSandbox(),
  });
  const enumOf = (gateway: Gateway) =>
    (gateway.tools()[0]!.inputSchema.properties as { action: { enum: string[] } }).action.enum;
  match(withSandbox.tools()[0]!.description, /run: JavaScript.*Scripts call only read-only tools/s);
  ok(enumOf(withSandbox).includes("run"));
  equal(withSandbox.presentation.injector.config.codeMode, "read-only");
  for (const gateway of [without, off]) {
    equal(gateway.tools()[0]!.description.includes("run:"), false);
    equal(enumOf(gateway).includes("run"), false);
  }
  // A profile sets its own: the whole config's all, the profile's off.
  const profiled = await Gateway.open(pool().upstream, {
    options: { pinned: [], codeMode: "all" },
    store,
    sandbox: new VmSandbox(),
    profile: { name: "p", codeMode: "off" },
  });
  equal(profiled.tools()[0]!.description.includes("run:"), false);
  equal(enumOf(profiled).includes("run"), false);
  match(all.tools()[0]!.description, /run: JavaScript/);
  equal(all.tools()[0]!.description.includes("Scripts call only read-only tools"), false);
  // A run sent where it is off is refused as the bridge refuses an unknown action.
  const refused = await run(without, "return 1");
  equal(refused.isError, true);
  equal((refused.structuredContent as { action: string }).action, "error");
});

Deno.test("a run's answer follows the bridge's output schema, and its calls are executes", async () => {
  const { upstream, calls } = pool();
  const store = new MemorySessionStore();
  const gateway = await Gateway.open(upstream, {
    options: { pinned: [] },
    store,
    sandbox: new VmSandbox(),
  });
  const session = { tenant: "", session: "s1" };
  const good = await run(
    gateway,
    `const a = await call("a/read", { key: "x" });
     let refused = "";
     try { await call("a/write", {}); } catch (e) { refused = e.message; }
     console.log("done");
     return { a, refused };`,
    { session },
  );
  equal(good.isError, undefined);
  const answer = structured(good);
  deepEqual(answer.result, { a: { value: "x!" }, refused: readOnlyRefusal("a/write") });
  deepEqual(answer.calls, [{ id: "a/read", ok: true }]);
  deepEqual(calls.map((c) => c.name), ["read"], "the write never went out");
  const failed = await run(gateway, "return (;", { session });
  const limited = await run(gateway, "while (true) {}", { session });
  for (const result of [good, failed, limited]) {
    const copy = structured(result);
    equal(copy.action, "run");
    deepEqual(validateArguments(OUTPUT_TOOL, copy), [], JSON.stringify(copy));
  }
  // What the script returns is the servers' data: its invisible characters shown, as everywhere.
  const hidden = await run(gateway, `return "a\\u202eb";`);
  equal(structured(hidden).result, "a\\u202eb");
  equal((hidden.content?.[0] as { text: string }).text.includes("\u202e"), false);
  deepEqual((hidden.structuredContent as { untrusted: string[] }).untrusted, [
    "result",
    "logs",
    "calls",
  ]);
  equal(structured(failed).error?.code, "syntax_error");
  equal(structured(limited).error?.code, "limit");
  // The session counted the result and recorded the script's call.
  const state = await store.get(session);
  equal(state?.counters.scriptCalls, 1);
});

Deno.test("the host's cancel stops the run and reaches the upstream call it was waiting for", async () => {
  const { upstream, calls, waiting } = pool();
  const gateway = await Gateway.open(upstream, {
    options: { pinned: [] },
    store: new MemorySessionStore(),
    sandbox: new VmSandbox(),
  });
  const cancel = new AbortController();
  const running = run(gateway, `return await call("a/wait", {});`, { signal: cancel.signal });
  await waiting;
  cancel.abort();
  const answer = structured(await running);
  equal(answer.error?.code, "sandbox_failed");
  match(answer.error?.message ?? "", /cancelled/);
  equal(calls[0]?.aborted, true, "the upstream call was told");
});

Deno.test("a script's call goes out with the execute's timeout, era and the trust check", async () => {
  const seen: { timeoutMs?: number | null; era?: string; admit: boolean; signal: boolean }[] = [];
  const upstream: UpstreamPool = {
    ...pool().upstream,
    forward: (_tool, _args, options) => {
      seen.push({
        ...(options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options?.era === undefined ? {} : { era: options.era }),
        admit: options?.admit !== undefined,
        signal: options?.signal !== undefined,
      });
      return Promise.resolve({ content: [{ type: "text", text: "ok" }] });
    },
  };
  const trust: TrustSource = {
    mode: "pin",
    lock: () => ({ version: 2, tools: { "a/read": lockEntry(READ) } }),
    approve: "unfold approve",
  };
  const gateway = await Gateway.open(upstream, {
    options: { pinned: [], callTimeoutMs: 1234, trust: "pin" },
    store: new MemorySessionStore(),
    trust,
    sandbox: new VmSandbox(),
  });
  const answer = structured(await run(gateway, `return await call("a/read", { key: "k" });`));
  equal(answer.result, "ok");
  deepEqual(seen, [{ timeoutMs: 1234, era: "modern", admit: true, signal: true }]);
});

Deno.test("under trust, a read-only script may not call a tool whose annotations are not approved", async () => {
  const changed: McpTool = { ...READ, annotations: { readOnlyHint: true, title: "new" } };
  const { upstream, calls } = pool([changed, WRITE]);
  const trust: TrustSource = {
    mode: "notify",
    lock: () => ({ version: 2, tools: { "a/read": lockEntry({ ...READ, annotations: {} }) } }),
    approve: "unfold approve",
  };
  const gateway = await Gateway.open(upstream, {
    options: { pinned: [], trust: "notify" },
    store: new MemorySessionStore(),
    trust,
    sandbox: new VmSandbox(),
  });
  const answer = structured(
    await run(
      gateway,
      `try { return await call("a/read", { key: "x" }); } catch (e) { return e.message; }`,
    ),
  );
  equal(answer.result, unapprovedRefusal("a/read", "`unfold approve a/read`"));
  equal(calls.length, 0);
});

Deno.test("a run's answer over the result ceiling is cut, with the marker, the rest for more", async () => {
  const gateway = await Gateway.open(pool().upstream, {
    options: { pinned: [], maxResultTokens: 2_000 },
    store: new MemorySessionStore(),
    sandbox: new VmSandbox(),
  });
  const session = { tenant: "", session: "s" };
  const cut = await run(gateway, `return "word ".repeat(19000);`, { session });
  const texts = (cut.content as { text: string }[]).map((block) => block.text);
  ok(texts.join("").length < 19000 * 5, `${texts.join("").length} characters`);
  const marker = texts.at(-1)!;
  match(marker, /\[Cut by unfold: [\d,]+ of [\d,]+ tokens shown/);
  const copy = structured(cut) as unknown as { action: string; cut: unknown; json: string };
  equal(copy.action, "run", "the cut copy still names the run");
  ok(JSON.stringify(copy).length < 19000 * 5, "the structured copy is cut too");
  deepEqual(validateArguments(OUTPUT_TOOL, copy), [], JSON.stringify(copy).slice(-300));
  // The rest comes with more, as any answer's.
  const ref = /"ref":"([^"]+)"/.exec(marker)?.[1];
  ok(ref, marker);
  const next = await gateway.call("mcp", { action: "more", ref }, { session });
  ok(next.ok);
  equal(next.result.isError, undefined);
  match((next.result.content?.[0] as { text: string }).text, /^word word/);
});
