/**
 * Code mode's sandbox on Cloudflare Workers: each run in a fresh isolate of the Worker Loader
 * binding (`worker_loaders` in wrangler.toml), loaded with `load()` (no cache, nothing kept
 * between runs) and `globalOutbound: null` (no `fetch`, no `connect`), no bindings, and the run's
 * CPU time as its `limits.cpuMs`. The isolate's main module is the harness; the script is a
 * module of its own, whose only export is a function that the harness calls once the global
 * scope is locked down. The harness reaches the host through one function passed over RPC.
 *
 * The deployed platform bounds an isolate's CPU time and memory (128 MB); a local workerd
 * (`wrangler dev`) bounds neither, and runs the isolate on the thread of the Worker that loaded
 * it, so there the harness's own counts (steps, bulk allocations) are what stop a busy script.
 *
 * @module
 */

import { HARNESS_SOURCE, harnessSettings } from "../code_mode/harness.ts";
import { prepareScript, scriptModule } from "../code_mode/prepare.ts";
import type { Sandbox, SandboxEnd, SandboxHost, SandboxScript } from "../code_mode/sandbox.ts";

/** The part of a Worker Loader binding the sandbox uses. */
export interface WorkerLoader {
  /**
   * Loads a fresh isolate.
   *
   * @param code Its modules and settings.
   * @returns The isolate's stub.
   */
  load(code: {
    compatibilityDate: string;
    mainModule: string;
    modules: Record<string, string>;
    globalOutbound: null;
    limits?: { cpuMs?: number };
  }): LoadedWorker;
}

/** A loaded isolate, as the sandbox uses it. */
export interface LoadedWorker {
  /**
   * The isolate's default entrypoint.
   *
   * @returns Its RPC stub.
   */
  getEntrypoint(): {
    run(send: (text: string) => unknown, settings: unknown): Promise<string>;
  };
}

// The isolate's compatibility date: what its JavaScript APIs are (RPC functions need 2024-04-03).
const COMPATIBILITY_DATE = "2025-09-01";

// The harness as the isolate's main module: the global scope is locked down before the script's
// function runs, and the timers the harness schedules with are taken before that.
const HARNESS_MODULE = `import { WorkerEntrypoint } from "cloudflare:workers";
import factory from "script.js";
const harness = ${HARNESS_SOURCE};
const later = setTimeout;
const NativePromise = Promise;
const apply = Reflect.apply;
const then = Promise.prototype.then;
export default class Sandbox extends WorkerEntrypoint {
  run(send, settings) {
    return new NativePromise((finish) => {
      // Log lines are calls of their own: the last word waits until the host has them all.
      let lines = 0;
      let last;
      const settled = () => {
        lines--;
        if (lines === 0 && last !== undefined) finish(last);
      };
      const api = harness({
        // An RPC call's promise is the runtime's own: the harness takes a native one.
        post: (text) => {
          const notice = text.startsWith('{"op":"log"');
          if (notice) lines++;
          const sent = new NativePromise((resolve, reject) => void send(text).then(resolve, reject));
          if (notice) apply(then, sent, [settled, settled]);
          return sent;
        },
        finish: (text) => {
          last = text;
          if (lines === 0) finish(text);
        },
        schedule: (task) => void later(task, 0),
      }, settings);
      api.start(factory);
    });
  }
}
`;

/**
 * The Worker Loader sandbox.
 *
 * @example Usage
 * ```ts ignore
 * import { WorkerLoaderSandbox } from "./code_sandbox.ts";
 *
 * const sandbox = new WorkerLoaderSandbox(env.LOADER);
 * ```
 */
export class WorkerLoaderSandbox implements Sandbox {
  #loader: WorkerLoader;

  /**
   * Makes the sandbox.
   *
   * @param loader The Worker Loader binding.
   */
  constructor(loader: WorkerLoader) {
    this.#loader = loader;
  }

  /**
   * Runs one script in a fresh isolate (see {@linkcode Sandbox.run}).
   *
   * @param script The code and its bounds.
   * @param host Where the script's messages go.
   * @param signal Stops the run.
   * @returns How the run ended.
   */
  async run(script: SandboxScript, host: SandboxHost, signal: AbortSignal): Promise<SandboxEnd> {
    const prepared = prepareScript(script.code, script.limits.maxCodeChars);
    if (!prepared.ok) return { kind: "rejected", problem: prepared.error };
    if (signal.aborted) return { kind: "aborted" };
    const { limits } = script;
    let worker: LoadedWorker;
    let entry: ReturnType<LoadedWorker["getEntrypoint"]>;
    try {
      worker = this.#loader.load({
        compatibilityDate: COMPATIBILITY_DATE,
        mainModule: "harness.js",
        modules: { "harness.js": HARNESS_MODULE, "script.js": scriptModule(prepared.value.source) },
        globalOutbound: null,
        limits: { cpuMs: limits.cpuMs },
      });
      entry = worker.getEntrypoint();
    } catch (error) {
      return { kind: "failed", message: `cannot load an isolate: ${message(error)}` };
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stop = () => {};
    try {
      const ended = new Promise<SandboxEnd>((resolve) => {
        timer = setTimeout(() => resolve({ kind: "limit", limit: "timeoutMs" }), limits.timeoutMs);
        stop = () => resolve({ kind: "aborted" });
        signal.addEventListener("abort", stop);
      });
      const running = entry.run(
        (text: string) => host.message(text),
        harnessSettings(limits, 1),
      ).then(
        (text): SandboxEnd => ({ kind: "done", text: String(text) }),
        (error): SandboxEnd => failure(error),
      );
      return await Promise.race([running, ended]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      dispose(entry);
      dispose(worker);
    }
  }
}

// What a failed isolate said, as an ending: the platform's CPU and memory bounds are limits.
function failure(error: unknown): SandboxEnd {
  const text = message(error);
  if (/exceeded CPU/i.test(text)) return { kind: "limit", limit: "cpuMs" };
  if (/exceeded memory|memory limit/i.test(text)) return { kind: "limit", limit: "memoryMb" };
  return { kind: "failed", message: `the isolate failed: ${text.slice(0, 300)}` };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The isolate and its stub hold native handles: released at once, not left to the collector.
function dispose(resource: unknown): void {
  const release = (resource as { [Symbol.dispose]?: unknown })?.[Symbol.dispose];
  if (typeof release !== "function") return;
  try {
    release.call(resource);
  } catch { /* already released */ }
}
