/**
 * The contract every code mode sandbox runs, through the face that serves it: the adversarial
 * suite. Escapes (`Deno`, `process`, `fetch`, `WebSocket`, `import()`, `eval` of code that tries
 * the same, WebAssembly, shared memory, stack-trace hooks, tampering with the bridge's functions
 * and prototypes, getters and proxies in arguments and values, huge and cyclic values), resource
 * bombs (busy loops sync and async, memory growth, promise floods, 10,000 calls, huge logs), and
 * the bridge's own guards (a read-only script's write, a held tool, a tool outside the catalogue,
 * bad arguments). Each ends in a clear answer; after each bomb the host still runs a script, and
 * the runner says what the run left running (processes, for the Deno sandbox; the test's own
 * timers and resources are Deno's sanitizers').
 *
 * @module
 */

import { deepEqual, equal, match, ok } from "node:assert/strict";
import type { CodeLimits, McpTool, RunAnswer } from "../../mod.ts";

/** What a runner runs a script with. */
export interface ContractRun {
  /** The mode. */
  mode: "read-only" | "all";
  /** The bounds (over the contract's defaults). */
  limits: Partial<CodeLimits>;
}

/** A face that runs scripts in the sandbox under test, with the contract's tools. */
export interface ScriptRunner {
  /**
   * Runs a script to its end, answering its calls with {@linkcode contractResult} (and, for a
   * host that replays, replaying it until it ends).
   */
  run(code: string, options: ContractRun): Promise<RunAnswer>;
  /** How many processes the runs left (0 where a run is no process). */
  leftover(): Promise<number>;
  /** Stops the face. */
  close(): Promise<void>;
}

/** The message a held tool's call fails with (as the gateway says it for a tool held by trust). */
export const HELD = "vault/secret is held: its definition changed since you approved it; " +
  "run `unfold approve vault` to review it";

const object = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: "object",
  properties,
  ...(required.length > 0 ? { required } : {}),
});
const READ_ONLY = { readOnlyHint: true };

/** The contract's catalogue. */
export const CONTRACT_TOOLS: McpTool[] = [
  {
    server: "fs",
    name: "read",
    description: "Read a file's text",
    inputSchema: object({ path: { type: "string" } }, ["path"]),
    annotations: READ_ONLY,
  },
  {
    server: "fs",
    name: "write",
    description: "Write a file",
    inputSchema: object({ path: { type: "string" }, text: { type: "string" } }, ["path"]),
  },
  {
    server: "fs",
    name: "echo",
    description: "Echo the arguments back as structured content",
    inputSchema: object(),
    annotations: READ_ONLY,
  },
  {
    server: "vault",
    name: "secret",
    description: "Read a secret (held by trust in this suite)",
    inputSchema: object(),
    annotations: READ_ONLY,
  },
];

/**
 * What the contract's tools answer, as MCP results; `undefined` for the held tool, which the host
 * refuses to run (a live invoker throws {@linkcode HELD}; a replaying host sends an error result).
 *
 * @param tool The tool.
 * @param args Its arguments.
 * @returns The result, or `undefined` when the host refuses.
 */
export function contractResult(
  tool: McpTool,
  args: Record<string, unknown>,
): Record<string, unknown> | undefined {
  switch (`${tool.server}/${tool.name}`) {
    case "fs/read":
      return { content: [{ type: "text", text: `read:${args.path}` }] };
    case "fs/write":
      return { content: [{ type: "text", text: "wrote" }] };
    case "fs/echo":
      return { content: [{ type: "text", text: "echo" }], structuredContent: { args } };
    default:
      return undefined;
  }
}

/** The bounds the contract runs with: small, so that each bomb ends soon. */
export const CONTRACT_LIMITS: Partial<CodeLimits> = {
  timeoutMs: 30_000,
  maxSteps: 200_000,
  memoryMb: 32,
  maxCalls: 50,
  maxLogLines: 50,
  maxLogChars: 20_000,
  maxOutputChars: 100_000,
};

interface Case {
  name: string;
  code: string;
  mode?: "read-only" | "all";
  limits?: Partial<CodeLimits>;
  bomb?: boolean;
  check: (answer: RunAnswer) => void;
}

const failed = (code: string, pattern?: RegExp) => (answer: RunAnswer) => {
  equal(answer.isError, true, JSON.stringify(answer.structuredContent));
  equal(answer.error?.code, code, JSON.stringify(answer.error));
  if (pattern !== undefined) match(answer.error?.message ?? "", pattern);
};
const limited = (limit: string | string[]) => (answer: RunAnswer) => {
  failed("limit")(answer);
  ok([limit].flat().includes(answer.error?.limit ?? ""), answer.error?.message);
  match(answer.error?.message ?? "", /By then the script had made/);
};
const returns = (value: unknown) => (answer: RunAnswer) => {
  equal(answer.isError, false, JSON.stringify(answer.error));
  deepEqual(answer.result, value);
};
const noCall = (check: (answer: RunAnswer) => void) => (answer: RunAnswer) => {
  check(answer);
  deepEqual(answer.calls, []);
};

const ESCAPES: Case[] = [
  {
    name: "no global reaches outside: Deno, process, fetch, WebSocket, timers, WebAssembly, …",
    code: `return [typeof Deno, typeof process, typeof require, typeof fetch, typeof WebSocket,
      typeof XMLHttpRequest, typeof setTimeout, typeof setInterval, typeof WebAssembly,
      typeof SharedArrayBuffer, typeof Atomics, typeof crypto, typeof performance,
      typeof navigator, typeof caches, typeof Worker, typeof ArrayBuffer, typeof Uint8Array,
      typeof WeakRef, typeof FinalizationRegistry, typeof BigInt, typeof Temporal,
      typeof structuredClone, typeof TextEncoder]`,
    check: returns(Array(24).fill("undefined")),
  },
  {
    name: "Deno.readTextFile is a ReferenceError",
    code: `return await Deno.readTextFile("/etc/passwd")`,
    check: noCall(failed("script_error", /Deno is not defined/)),
  },
  {
    name: "process.env is a ReferenceError",
    code: `return process.env`,
    check: failed("script_error", /process is not defined/),
  },
  {
    name: "fetch is a ReferenceError",
    code: `return await fetch("http://127.0.0.1:9/")`,
    check: failed("script_error", /fetch is not defined/),
  },
  {
    name: "WebSocket is a ReferenceError",
    code: `new WebSocket("ws://127.0.0.1:9/")`,
    check: failed("script_error", /WebSocket is not defined/),
  },
  {
    name: "import() is refused before the run, with its line and column",
    code: `const x = 1;\nreturn await import("node:fs")`,
    check: (answer) => {
      failed("not_allowed", /cannot import/)(answer);
      equal(answer.error?.line, 2);
      equal(answer.error?.column, 14);
    },
  },
  {
    name: "a static import is refused",
    code: `import fs from "node:fs";\nreturn fs`,
    check: failed("not_allowed", /cannot import/),
  },
  {
    name: "eval of code that reaches out is refused",
    code: `return eval("typeof Deno + typeof fetch")`,
    check: failed("script_error", /EvalError/),
  },
  {
    name: "new Function, and the AsyncFunction constructor, are refused",
    code: `try { new Function("return fetch")() } catch (e) { console.log(e.name) }
      return (async () => {}).constructor("return await import('node:fs')")`,
    check: (answer) => {
      failed("script_error", /EvalError/)(answer);
      deepEqual(answer.logs, ["EvalError"]);
    },
  },
  {
    name: "the bridge's functions lead to no constructor that makes code",
    code: `return call.constructor("return globalThis.Deno")()`,
    check: failed("script_error", /EvalError/),
  },
  {
    name: "WebAssembly cannot be compiled",
    code: `return await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))`,
    check: failed("script_error", /WebAssembly is not defined/),
  },
  {
    name: "SharedArrayBuffer and Atomics.wait are not there",
    code: `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000)`,
    check: failed("script_error", /is not defined/),
  },
  {
    name: "a stack-trace hook cannot be set",
    code: `Error.prepareStackTrace = (e, sites) => sites; return new Error("x").stack`,
    check: failed("script_error", /read.only|Cannot assign/i),
  },
  {
    name: "replacing call is refused",
    code: `globalThis.call = async () => "forged"; return await call("fs/write", {})`,
    check: noCall(failed("script_error", /read.only|Cannot assign/i)),
  },
  {
    name: "a toJSON on Object.prototype cannot turn a read into a write",
    code: `Object.defineProperty(Object.prototype, "toJSON", {
        value() { return { op: "call", seq: 1, tool: "fs/write", args: { path: "x" } }; },
        configurable: true,
      });
      return await call("fs/read", { path: "a" })`,
    check: noCall(failed("script_error", /not JSON/)),
  },
  {
    name: "replacing JSON and Promise.prototype.then changes nothing of a call",
    code: `JSON.stringify = () => '{"op":"call","seq":1,"tool":"fs/write","args":{}}';
      JSON.parse = () => ({ seq: 1, ok: true, value: "forged" });
      Promise.prototype.then = function () { throw new Error("tampered"); };
      return await call("fs/read", { path: "a" })`,
    check: (answer) => {
      returns("read:a")(answer);
      deepEqual(answer.calls, [{ id: "fs/read", ok: true }]);
    },
  },
  {
    name: "the built-ins the harness guards cannot be replaced",
    code: `Array.prototype.push = () => 0`,
    check: failed("script_error", /read.only|Cannot assign/i),
  },
  {
    name: "a getter in the arguments is read once",
    code: `let reads = 0;
      const echoed = await call("fs/echo", { get n() { return ++reads; } });
      return { echoed, reads }`,
    check: returns({ echoed: { args: { n: 1 } }, reads: 1 }),
  },
  {
    name: "a proxy whose trap throws in the arguments fails that call",
    code: `return await call("fs/echo", new Proxy({}, { ownKeys() { throw new Error("trap"); } }))`,
    check: noCall(failed("script_error", /trap/)),
  },
  {
    name: "a proxy value that yields functions is not JSON",
    code: `return new Proxy({}, {
        ownKeys: () => ["a"],
        getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }),
        get: (_, key) => key === "a" ? () => 1 : undefined,
      })`,
    check: failed("not_json", /a function at \/a/),
  },
  {
    name: "a value whose then never calls back never settles",
    code: `return new Proxy({}, { get: () => () => 1 })`,
    check: failed("never_settles"),
  },
  {
    name: "a getter that throws in the value fails the run with its message",
    code: `return { get a() { throw new Error("getter"); } }`,
    check: failed("script_error", /getter/),
  },
  {
    name: "cyclic arguments fail the call",
    code: `const o = {}; o.self = o; return await call("fs/echo", o)`,
    check: noCall(failed("script_error", /not JSON: a cyclic reference at \/self/)),
  },
  {
    name: "a cyclic value is not JSON, and says where",
    code: `const o = { a: {} }; o.a.back = o; return o`,
    check: failed("not_json", /cyclic reference at \/a\/back/),
  },
  {
    name: "a value nested too deep is not JSON",
    code: `let o = {}; for (let i = 0; i < 100; i++) o = { o }; return o`,
    check: failed("not_json", /deeper than 64/),
  },
  {
    name: "huge arguments fail the call",
    code: `return await call("fs/echo", { big: "x".repeat(200000) })`,
    check: noCall(failed("script_error", /longer than 100000/)),
  },
  {
    name: "a huge value stops the run at maxOutputChars",
    code: `return "x".repeat(200000)`,
    check: limited("maxOutputChars"),
  },
];

const BOMBS: Case[] = ([
  { name: "a busy loop stops at maxSteps", code: `while (true) {}`, check: limited("maxSteps") },
  {
    name: "a busy loop that catches the stop still stops",
    code: `for (;;) { try { for (;;) {} } catch { continue; } finally { continue; } }`,
    check: limited("maxSteps"),
  },
  {
    name: "a busy async loop stops at maxSteps",
    code: `for (;;) await null`,
    check: limited("maxSteps"),
  },
  {
    name: "a busy loop in a callback of a built-in stops",
    code: `return new Array(1000).fill(0).sort(() => { for (;;) {} })`,
    check: limited("maxSteps"),
  },
  {
    name: "memory growth stops at memoryMb",
    code: `const a = []; for (;;) a.push("x".repeat(1000) + a.length)`,
    check: limited("memoryMb"),
  },
  {
    name: "one bulk allocation over the memory is refused",
    code: `return new Array(1e9).fill(0).length`,
    check: failed("script_error", /memoryMb/),
  },
  {
    name: "a flood of promises stops at maxSteps, or at memoryMb first",
    code: `for (let i = 0; ; i++) Promise.resolve(i).then((x) => x)`,
    check: limited(["maxSteps", "memoryMb"]),
  },
  {
    name: "a rejected promise nobody handles ends nothing but itself",
    code: `call("github/nope", {}); Promise.reject(new Error("ignored")); return 1`,
    check: returns(1),
  },
  {
    name: "promises that nothing settles end the run at once",
    code: `await Promise.all(Array.from({ length: 10000 }, () => new Promise(() => {})))`,
    check: failed("never_settles"),
  },
  {
    name: "10,000 calls stop at maxCalls",
    code:
      `await Promise.all(Array.from({ length: 10000 }, (_, i) => call("fs/read", { path: "f" + i })))`,
    limits: { maxCalls: 10 },
    check: (answer) => {
      limited("maxCalls")(answer);
      ok(answer.calls.length <= 10, `${answer.calls.length} calls`);
    },
  },
  {
    name: "a flood of console lines stops at maxLogLines",
    code: `for (;;) console.log("line")`,
    check: (answer) => {
      limited("maxLogLines")(answer);
      equal(answer.logs.length, 50);
    },
  },
  {
    name: "one huge console line stops at maxLogChars",
    code: `console.log("x".repeat(100000))`,
    check: limited("maxLogChars"),
  },
] satisfies Case[]).map((c) => ({ ...c, bomb: true }));

const GUARDS: Case[] = [
  {
    name: "a read-only script's write throws, telling the model to execute it",
    code: `return await call("fs/write", { path: "a", text: "b" })`,
    check: noCall(failed("script_error", /execute it through the bridge/)),
  },
  {
    name: "with all, a script writes",
    code: `return await call("fs/write", { path: "a", text: "b" })`,
    mode: "all",
    check: (answer) => {
      returns("wrote")(answer);
      deepEqual(answer.calls, [{ id: "fs/write", ok: true }]);
    },
  },
  {
    name: "a held tool's call throws what the host said",
    code: `return await call("vault/secret", {})`,
    check: (answer) => {
      failed("script_error", /is held/)(answer);
      deepEqual(answer.calls.map((c) => [c.id, c.ok]), [["vault/secret", false]]);
    },
  },
  {
    name: "a held tool's refusal can be caught",
    code: `try { await call("vault/secret", {}); } catch (e) { return e.message; }`,
    check: returns(HELD),
  },
  {
    name: "a tool outside the catalogue is unknown",
    code: `return await call("github/delete_repo", {})`,
    check: noCall(failed("script_error", /no tool "github\/delete_repo" in this catalogue/)),
  },
  {
    name: "arguments that break the schema throw with each problem",
    code: `return await call("fs/read", { path: 1 })`,
    check: noCall(failed("script_error", /"\/path"/)),
  },
  {
    name: "search and describe answer from the catalogue",
    code: `const found = await search("read a file", 2);
      const tool = await describe("fs/read");
      return { ids: found.map((f) => f.id), required: tool.inputSchema.required }`,
    check: (answer) => {
      equal(answer.isError, false, JSON.stringify(answer.error));
      const result = answer.result as { ids: string[]; required: string[] };
      equal(result.ids[0], "fs/read");
      deepEqual(result.required, ["path"]);
    },
  },
  {
    name: "calls run in parallel and reach the script in order",
    code: `return await Promise.all(["1", "2", "3"].map((path) => call("fs/read", { path })))`,
    check: (answer) => {
      returns(["read:1", "read:2", "read:3"])(answer);
      equal(answer.calls.length, 3);
    },
  },
  {
    name: "console lines are kept, with their level",
    code: `console.log("a", 1, { b: [2] }); console.warn("careful"); return null`,
    check: (answer) => deepEqual(answer.logs, ['a 1 {"b":[2]}', "[warn] careful"]),
  },
];

const ERRORS: Case[] = [
  {
    name: "a syntax error names its line and column",
    code: `const a = 1;\nconst b = ;`,
    check: (answer) => {
      failed("syntax_error", /line 2, column 11/)(answer);
      equal(answer.error?.line, 2);
      equal(answer.error?.column, 11);
    },
  },
  {
    name: "an exception names its message and line",
    code: `const a = 1;\n\nthrow new TypeError("boom");`,
    check: (answer) => {
      failed("script_error", /TypeError: boom \(line 3\)/)(answer);
      equal(answer.error?.line, 3);
    },
  },
  {
    name: "a value that is not JSON says what it was",
    code: `return { files: new Map([["a", 1]]) }`,
    check: failed("not_json", /a Map .* at \/files/),
  },
  {
    name: "a promise left unawaited in the value is named",
    code: `return { total: Promise.resolve(1) }`,
    check: failed("not_json", /Promise \(did you forget await\?\) at \/total/),
  },
  {
    name: "no clock reaches the script: Date.now, new Date(), a date-less format",
    code: `const errors = [];
      for (const f of [() => Date.now(), () => new Date(), () => Date(), () => new Intl.DateTimeFormat("en").format()]) {
        try { f(); } catch (e) { errors.push(e.message.startsWith("There is no clock")); }
      }
      return { errors, fixed: new Date(0).toISOString() }`,
    check: returns({ errors: [true, true, true, true], fixed: "1970-01-01T00:00:00.000Z" }),
  },
  {
    name: "no randomness reaches the script",
    code: `return Math.random()`,
    check: failed("script_error", /Math\.random is not available/),
  },
  {
    name: "BigInt is refused",
    code: `return 2n ** 100000n`,
    check: failed("not_allowed", /BigInt/),
  },
  {
    name: "a script over maxCodeChars is refused",
    code: `return 1; // ${"x".repeat(400)}`,
    limits: { maxCodeChars: 100 },
    check: failed("too_long"),
  },
];

/**
 * Registers the contract for one sandbox, as one test with a step per case.
 *
 * @param name The sandbox and the face, shown in the test's name.
 * @param open Starts the face.
 */
export function sandboxContract(name: string, open: () => Promise<ScriptRunner>): void {
  Deno.test(`${name}: the adversarial suite`, async (t) => {
    const runner = await open();
    try {
      for (const c of [...ESCAPES, ...BOMBS, ...GUARDS, ...ERRORS]) {
        await t.step(c.name, async () => {
          const answer = await runner.run(c.code, {
            mode: c.mode ?? "read-only",
            limits: { ...CONTRACT_LIMITS, ...c.limits },
          });
          equal(answer.action, "run");
          equal(typeof answer.toolResult, "string");
          deepEqual(JSON.parse(answer.toolResult), answer.structuredContent);
          c.check(answer);
          equal(await runner.leftover(), 0, "the run left processes running");
          if (c.bomb) {
            const after = await runner.run("return 1", {
              mode: "read-only",
              limits: CONTRACT_LIMITS,
            });
            equal(after.result, 1, "the host runs scripts after the bomb");
          }
        });
      }
    } finally {
      await runner.close();
    }
  });
}

/**
 * The Deno sandbox's processes among the children of this test process (Linux `/proc`; the
 * test files of a parallel run share the process, so other children are other tests'): a run
 * must leave none.
 *
 * @returns The number of live sandbox processes.
 */
export function childProcessCount(): number {
  let count = 0;
  for (const task of Deno.readDirSync("/proc/self/task")) {
    let children = "";
    try {
      children = Deno.readTextFileSync(`/proc/self/task/${task.name}/children`).trim();
    } catch {
      continue; // the thread ended meanwhile
    }
    for (const pid of children === "" ? [] : children.split(/\s+/)) {
      let command = "";
      try {
        command = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
      } catch {
        continue; // gone meanwhile
      }
      if (command.includes(SANDBOX_PROGRAM)) count++;
    }
  }
  return count;
}

// What a sandbox process's command line holds: the start of its data: URL program.
const SANDBOX_PROGRAM = "data:text/javascript,import%20vm%20from%20%22node%3Avm%22";

/**
 * Runs a script through `/v1/route` as a host that runs the tools itself: it answers each
 * `call` with {@linkcode contractResult} (a refused tool gets an error result saying
 * {@linkcode HELD}) and sends the same run again with the results, until the run ends.
 *
 * @param post Posts a body to `/v1/route`.
 * @param code The script.
 * @param options The mode and bounds.
 * @returns The run's answer (with its code, as the core's has it).
 */
export async function replayThroughRoute(
  post: (body: unknown) => Promise<Response>,
  code: string,
  options: ContractRun,
): Promise<RunAnswer> {
  const results: unknown[] = [];
  const rounds = (options.limits.maxCalls ?? 100) + 2;
  for (let round = 0; round < rounds; round++) {
    const response = await post({
      catalog: CONTRACT_TOOLS,
      arguments: { action: "run", code },
      options: { codeMode: options.mode, codeLimits: options.limits },
      ...(results.length === 0 ? {} : { results }),
    });
    const body = await response.json();
    equal(response.status, 200, JSON.stringify(body));
    if (body.action !== "call") {
      const { catalogHash: _hash, ...answer } = body;
      return { ...answer, code } as RunAnswer;
    }
    equal(body.index, results.length, "a call's index is the number of results so far");
    results.push(
      contractResult(body.tool, body.arguments) ??
        { isError: true, content: [{ type: "text", text: HELD }] },
    );
  }
  throw new Error(`the run did not end within ${rounds} rounds`);
}
