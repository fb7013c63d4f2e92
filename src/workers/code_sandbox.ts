/**
 * Code mode's sandbox on Cloudflare Workers: each run in a fresh isolate of the Worker Loader
 * binding (`worker_loaders` in wrangler.toml), loaded with `load()` (no cache, nothing kept
 * between runs) and `globalOutbound: null` (no `fetch`, no `connect`), no bindings, and the run's
 * CPU time as its `limits.cpuMs`. The isolate's main module is the harness; the script is a
 * module of its own, whose only export is a function that the harness calls once the global
 * scope is locked down. The harness reaches the host through one function passed over RPC.
 *
 * The script is parsed and given its steps (`prepare.ts`, acorn) in an isolate of its own, loaded
 * once and kept by the Worker Loader, from the static asset `code-mode-sandbox.js` (built from
 * `src/code_mode/sandbox_asset.ts` by `deno task code-mode-asset`), which also gives the harness's
 * source: neither the parser nor the harness is in the Worker's script.
 *
 * The deployed platform bounds an isolate's CPU time and memory (128 MB); a local workerd
 * (`wrangler dev`) bounds neither, and runs the isolate on the thread of the Worker that loaded
 * it, so there the harness's own counts (steps, bulk allocations) are what stop a busy script.
 *
 * @module
 */

import { harnessSettings } from "../code_mode/harness_settings.ts";
import { scriptModule } from "../code_mode/script_text.ts";
import type {
  Sandbox,
  SandboxEnd,
  SandboxHost,
  SandboxScript,
  ScriptProblem,
} from "../code_mode/sandbox.ts";

/** The static asset the preparer isolate loads: `prepare.ts` with acorn, and the harness. */
export const SANDBOX_ASSET = "/code-mode-sandbox.js";

/** The part of the `ASSETS` binding the sandbox and the ranker use. */
export interface AssetsBinding {
  /**
   * Fetches a static asset.
   *
   * @param request The request (its path names the asset).
   * @returns The response.
   */
  fetch(request: Request): Promise<Response>;
}

/** What a loaded isolate's code is, as the sandbox gives it. */
interface WorkerCode {
  compatibilityDate: string;
  mainModule: string;
  modules: Record<string, string>;
  globalOutbound: null;
  limits?: { cpuMs?: number };
}

/** The part of a Worker Loader binding the sandbox uses. */
export interface WorkerLoader {
  /**
   * Loads a fresh isolate.
   *
   * @param code Its modules and settings.
   * @returns The isolate's stub.
   */
  load(code: WorkerCode): LoadedWorker;
  /**
   * An isolate kept by its id, loaded the first time.
   *
   * @param id The isolate's id: the same id, the same code.
   * @param code Gives its modules and settings, when it must be loaded.
   * @returns The isolate's stub.
   */
  get(id: string, code: () => Promise<WorkerCode>): LoadedWorker;
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
    prepare(code: string, maxCodeChars: number): Promise<unknown>;
    harness(): Promise<string>;
  };
}

// The preparer isolate's main module: the asset's preparation and harness behind RPC methods.
const PREPARER_MODULE = `import { WorkerEntrypoint } from "cloudflare:workers";
import { HARNESS_SOURCE, prepareScript } from "sandbox.js";
export default class Preparer extends WorkerEntrypoint {
  prepare(code, maxCodeChars) {
    return prepareScript(code, maxCodeChars);
  }
  harness() {
    return HARNESS_SOURCE;
  }
}
`;
// A script's preparation is one parse and a walk: linear in the script, which is bounded.
const PREPARE_CPU_MS = 2_000;

// The isolate's compatibility date: what its JavaScript APIs are (RPC functions need 2024-04-03).
const COMPATIBILITY_DATE = "2025-09-01";

// The harness as the isolate's main module: the global scope is locked down before the script's
// function runs, and the timers the harness schedules with are taken before that.
const harnessModule = (source: string) =>
  `import { WorkerEntrypoint } from "cloudflare:workers";
import factory from "script.js";
const harness = ${source};
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
  #assets: AssetsBinding | undefined;
  #asset: Promise<{ id: string; text: string }> | undefined;
  #harness: Promise<string> | undefined;

  /**
   * Makes the sandbox.
   *
   * @param loader The Worker Loader binding.
   * @param assets The static assets, where the preparer's code and the harness are.
   */
  constructor(loader: WorkerLoader, assets: AssetsBinding | undefined) {
    this.#loader = loader;
    this.#assets = assets;
  }

  // The preparer isolate, kept by the loader under an id that changes with the asset.
  async #preparer(): Promise<ReturnType<LoadedWorker["getEntrypoint"]>> {
    const { id, text } = await (this.#asset ??= this.#sandboxAsset());
    return this.#loader.get(id, () =>
      Promise.resolve({
        compatibilityDate: COMPATIBILITY_DATE,
        mainModule: "main.js",
        modules: { "main.js": PREPARER_MODULE, "sandbox.js": text },
        globalOutbound: null,
        limits: { cpuMs: PREPARE_CPU_MS },
      })).getEntrypoint();
  }

  // The script parsed and given its steps in the preparer isolate, and the harness's source.
  async #prepare(
    code: string,
    maxCodeChars: number,
  ): Promise<{ prepared: Prepared; harness?: string }> {
    try {
      const entry = await this.#preparer();
      try {
        const prepared = preparedOf(await entry.prepare(code, maxCodeChars));
        if (prepared.kind !== "prepared") return { prepared };
        const harness = await (this.#harness ??= Promise.resolve(entry.harness()).then(String));
        return { prepared, harness };
      } finally {
        dispose(entry);
      }
    } catch (error) {
      this.#asset = undefined;
      this.#harness = undefined;
      return {
        prepared: { kind: "failed", message: `cannot prepare the script: ${message(error)}` },
      };
    }
  }

  // The asset's code, from the static assets, and an id that changes with it.
  async #sandboxAsset(): Promise<{ id: string; text: string }> {
    if (this.#assets === undefined) {
      throw new Error("the Worker has no ASSETS binding (wrangler.toml [assets] binding)");
    }
    const response = await this.#assets.fetch(new Request(`http://assets.local${SANDBOX_ASSET}`));
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`${SANDBOX_ASSET} answered ${response.status}`);
    }
    const text = await response.text();
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    const hex = [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    return { id: `unfold-code-mode-${hex}`, text };
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
    if (script.code.length > script.limits.maxCodeChars) {
      // Said as prepare.ts says it, without loading the preparer for it.
      return {
        kind: "rejected",
        problem: {
          code: "too_long",
          message:
            `The script is ${script.code.length} characters long, over maxCodeChars (${script.limits.maxCodeChars}): ` +
            "write a shorter one, or do part of the work with execute",
        },
      };
    }
    const { prepared, harness } = await this.#prepare(script.code, script.limits.maxCodeChars);
    if (prepared.kind !== "prepared") return prepared;
    if (signal.aborted) return { kind: "aborted" };
    const { limits } = script;
    let worker: LoadedWorker;
    let entry: ReturnType<LoadedWorker["getEntrypoint"]>;
    try {
      worker = this.#loader.load({
        compatibilityDate: COMPATIBILITY_DATE,
        mainModule: "harness.js",
        modules: {
          "harness.js": harnessModule(harness!),
          "script.js": scriptModule(prepared.source),
        },
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

// What the preparer isolate made of a script: its source with steps, or why it is refused.
type Prepared = { kind: "prepared"; source: string } | Exclude<SandboxEnd, { kind: "done" }>;

// Says each time what a part of the preparer's answer is, so a broken asset cannot pass.
function preparedOf(answer: unknown): Prepared {
  const value = answer as { ok?: unknown; value?: { source?: unknown }; error?: ScriptProblem };
  if (value?.ok === true && typeof value.value?.source === "string") {
    return { kind: "prepared", source: value.value.source };
  }
  if (value?.ok === false && typeof value.error?.message === "string") {
    return { kind: "rejected", problem: value.error };
  }
  return { kind: "failed", message: "the preparer answered something else than a preparation" };
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
