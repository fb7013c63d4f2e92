import { deepEqual, equal, ok } from "node:assert/strict";
import { type CallAction, Injector, McpCatalog, type McpTool, type RunAnswer } from "../../mod.ts";
import type { Sandbox } from "../../src/code_mode/sandbox.ts";
import { MemorySessionStore, recordRun } from "../../src/session/mod.ts";
import { CONTRACT_TOOLS, contractResult } from "../_contracts/sandbox_contract.ts";
import { VmSandbox } from "./_vm_sandbox.ts";

const catalog = new McpCatalog(CONTRACT_TOOLS);
const injector = (mode: "read-only" | "all" = "read-only", limits = {}) =>
  new Injector(catalog, { codeMode: mode, codeLimits: { timeoutMs: 10_000, ...limits } });
const invoker = {
  invoke: (tool: McpTool, args: Record<string, unknown>) => contractResult(tool, args),
};
const read = (path: string) => ({ content: [{ type: "text", text: `read:${path}` }] });

const TWO_READS =
  `const [a, b] = await Promise.all([call("fs/read", { path: "a" }), call("fs/read", { path: "b" })]);
  const c = await call("fs/read", { path: a + b });
  console.log(c);
  return [a, b, c]`;

Deno.test("a live run answers its value, its console lines and its calls, in the text and the structure alike", async () => {
  const answer = await injector().run(TWO_READS, {
    sandbox: new VmSandbox(),
    invoker,
  }) as RunAnswer;
  deepEqual(answer.result, ["read:a", "read:b", "read:read:aread:b"]);
  deepEqual(answer.logs, ["read:read:aread:b"]);
  deepEqual(answer.calls.map((c) => c.id), ["fs/read", "fs/read", "fs/read"]);
  deepEqual(JSON.parse(answer.toolResult), answer.structuredContent);
  equal(answer.isError, false);
});

Deno.test("a replayed run asks for each call in turn and runs from the start each time", async () => {
  const sandbox = new VmSandbox();
  const results: unknown[] = [];
  const asked: CallAction[] = [];
  let answer: RunAnswer | CallAction;
  for (;;) {
    answer = await injector().run(TWO_READS, { sandbox, results: [...results] });
    if (answer.action !== "call") break;
    asked.push(answer);
    results.push(read(String(answer.arguments.path)));
  }
  deepEqual(asked.map((a) => [a.index, a.id, a.arguments]), [
    [0, "fs/read", { path: "a" }],
    [1, "fs/read", { path: "b" }],
    [2, "fs/read", { path: "read:aread:b" }],
  ]);
  equal(sandbox.runs, 4);
  deepEqual(answer.result, ["read:a", "read:b", "read:read:aread:b"]);
  // Each replay made the requests of the one before, and one more: the first two go together.
  const calls = sandbox.sent.filter((m) => m.includes('"op":"call"'));
  equal(calls.length, 2 + 2 + 3 + 3);
});

Deno.test("a call the script may not make takes no place among the results", async () => {
  const code = `try { await call("fs/write", { path: "x" }); } catch (e) { console.log(e.code); }
    return await call("fs/read", { path: "y" })`;
  const first = await injector().run(code, { sandbox: new VmSandbox(), results: [] });
  equal(first.action, "call");
  equal((first as CallAction).index, 0);
  equal((first as CallAction).id, "fs/read");
  const last = await injector().run(code, { sandbox: new VmSandbox(), results: [read("y")] });
  deepEqual([(last as RunAnswer).result, (last as RunAnswer).logs], ["read:y", ["read_only"]]);
});

Deno.test("a replayed error result makes the call throw its text", async () => {
  const answer = await injector().run(`return await call("fs/read", { path: "a" })`, {
    sandbox: new VmSandbox(),
    results: [{ isError: true, content: [{ type: "text", text: "No such file" }] }],
  }) as RunAnswer;
  equal(answer.error?.code, "script_error");
  ok(answer.error?.message.includes("No such file"), answer.error?.message);
  deepEqual(answer.calls, [{ id: "fs/read", ok: false, error: "No such file" }]);
});

Deno.test("results that do not fit the run are the host's mistake", async () => {
  const run = (results: unknown[], limits = {}) =>
    injector("read-only", limits).run(`return await call("fs/read", { path: "a" })`, {
      sandbox: new VmSandbox(),
      results,
    }) as Promise<RunAnswer>;
  equal((await run([read("a"), read("b")])).error?.code, "invalid_results");
  equal((await run([read("a"), read("b")], { maxCalls: 1 })).error?.code, "invalid_results");
  equal(
    (await run([read("x".repeat(2000))], { maxReplayBytes: 1024 })).error?.code,
    "invalid_results",
  );
});

Deno.test("a run without code mode or without a sandbox says it cannot run", async () => {
  const off = await new Injector(catalog).run("return 1", { sandbox: new VmSandbox(), invoker });
  equal((off as RunAnswer).error?.code, "unavailable");
  const none = await injector().run("return 1", { invoker });
  equal((none as RunAnswer).error?.code, "unavailable");
});

Deno.test("handle() routes a run to the sandbox, with its calls through the invoker", async () => {
  const answer = await injector().handle(
    { action: "run", code: `return await call("fs/read", { path: "z" })` },
    invoker,
    { sandbox: new VmSandbox() },
  );
  equal(answer.action, "run");
  equal((answer as RunAnswer).result, "read:z");
});

Deno.test("the host holds calls to maxConcurrentCalls at once, and every run keeps its order", async () => {
  let running = 0;
  let most = 0;
  const waiting: (() => void)[] = [];
  let arrived = Promise.withResolvers<void>();
  const slow = {
    invoke: async (tool: McpTool, args: Record<string, unknown>) => {
      most = Math.max(most, ++running);
      const released = new Promise<void>((resolve) => waiting.push(resolve));
      arrived.resolve();
      await released;
      running--;
      return contractResult(tool, args);
    },
  };
  const pending = injector("read-only", { maxConcurrentCalls: 3 }).run(
    `return await Promise.all(Array.from({ length: 12 }, (_, i) => call("fs/read", { path: String(i) })))`,
    { sandbox: new VmSandbox(), invoker: slow },
  );
  // Release the calls that wait, the last first: the replies still reach the script in order.
  for (let released = 0; released < 12; released++) {
    await arrived.promise;
    arrived = Promise.withResolvers<void>();
    const next = waiting.pop()!;
    if (waiting.length > 0) arrived.resolve();
    next();
  }
  const answer = await pending as RunAnswer;
  equal(most, 3);
  deepEqual(answer.result, Array.from({ length: 12 }, (_, i) => `read:${i}`));
});

Deno.test("a call still running when the run ends is told, and listed as such", async () => {
  let signal: AbortSignal | undefined;
  const hanging = {
    invoke: (_tool: McpTool, _args: Record<string, unknown>, s?: AbortSignal) => {
      signal = s;
      return new Promise(() => {});
    },
  };
  const answer = await injector().run(`call("fs/read", { path: "a" }); return "left"`, {
    sandbox: new VmSandbox(),
    invoker: hanging,
  }) as RunAnswer;
  equal(answer.result, "left");
  equal(signal?.aborted, true);
  equal(answer.calls.length, 1);
  equal(answer.calls[0]!.ok, false);
});

// A sandbox that writes what it likes: the host's bounds hold whatever the harness was made to do.
function forging(messages: string[]): Sandbox {
  return {
    async run(_script, host, signal) {
      for (const message of messages) {
        if (signal.aborted) return { kind: "aborted" };
        await host.message(message);
      }
      return { kind: "done", text: '{"op":"done","ok":true,"result":1}' };
    },
  };
}

Deno.test("the host stops a run whose sandbox sends what is not a message, or too many requests", async () => {
  const bad = await injector().run("", { sandbox: forging(["not json"]), invoker }) as RunAnswer;
  equal(bad.error?.code, "sandbox_failed");
  const flood = Array.from(
    { length: 200 },
    (_, i) => JSON.stringify({ op: "describe", seq: i + 1, id: "fs/read" }),
  );
  const many = await injector("read-only", { maxCalls: 5 }).run("", {
    sandbox: forging(flood),
    invoker,
  }) as RunAnswer;
  equal(many.error?.limit, "maxCalls");
  const lines = Array.from(
    { length: 60 },
    () => JSON.stringify({ op: "log", level: "log", text: "x" }),
  );
  const logs = await injector("read-only", { maxLogLines: 10 }).run("", {
    sandbox: forging(lines),
    invoker,
  }) as RunAnswer;
  equal(logs.error?.limit, "maxLogLines");
  equal(logs.logs.length, 10);
});

Deno.test("a forged call still takes an execute's path: mode, catalogue, schema", async () => {
  const call = (tool: string, args: unknown) => JSON.stringify({ op: "call", seq: 1, tool, args });
  const seen: string[] = [];
  const watching = {
    invoke: (tool: McpTool, args: Record<string, unknown>) => {
      seen.push(tool.name);
      return contractResult(tool, args);
    },
  };
  for (const message of [call("fs/write", { path: "x" }), call("x/y", {}), call("fs/read", {})]) {
    await injector().run("", { sandbox: forging([message]), invoker: watching });
  }
  deepEqual(seen, []);
});

Deno.test("recordRun counts the run and each of its calls as executes, their origin a script's", async () => {
  const store = new MemorySessionStore();
  const key = { tenant: "", session: "s" };
  await recordRun(store, key, "h", {
    calls: [{ id: "fs/read", ok: true }, { id: "fs/read", ok: false, error: "x" }],
  });
  const counters = (await store.get(key))!.counters;
  deepEqual([counters.runs, counters.scriptCalls, counters.executes, counters.upstreamFailures], [
    1,
    2,
    2,
    1,
  ]);
});

Deno.test("a run's answer is within maxResultTokens, in the text and the structured copy alike", async () => {
  const bounded = new Injector(catalog, { codeMode: "all", maxResultTokens: 200 });
  const answer = await bounded.handle(
    { action: "run", code: "return Array.from({ length: 300 }, (_, i) => 'line ' + i)" },
    invoker,
    { sandbox: new VmSandbox() },
  ) as RunAnswer & { cut?: { part: number } };
  equal((answer.result as string[]).length, 300, "the host's fields stay whole");
  ok(answer.toolResult.includes("[Cut by unfold:"), answer.toolResult.slice(-200));
  ok(bounded.config.estimateTokens(answer.toolResult) <= 200 + 60);
  ok(JSON.stringify(answer.structuredContent).includes("Cut by unfold"));
  equal(answer.cut?.part, 1);
});
