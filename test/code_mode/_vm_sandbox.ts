/**
 * The harness in a `node:vm` context of the test process itself: the same harness, preparation
 * and messages as the two sandboxes, without their process or isolate, so that the host's side
 * of a run (the driver, the replay, the bounds it enforces) is tested in the unit stage, fast.
 * Not a boundary (the real ones are `DenoSandbox` and `WorkerLoaderSandbox`, which the contract
 * suite runs); `sent` records every message, for tests that count them.
 *
 * @module
 */

import vm from "node:vm";
import { HARNESS_SOURCE } from "../../src/code_mode/harness.ts";
import { harnessSettings } from "../../src/code_mode/harness_settings.ts";
import { prepareScript } from "../../src/code_mode/prepare.ts";
import { scriptExpression } from "../../src/code_mode/script_text.ts";
import type { Sandbox, SandboxEnd } from "../../src/code_mode/sandbox.ts";

/** A sandbox over `node:vm`, and what its runs sent. */
export class VmSandbox implements Sandbox {
  /** Every message of every run, in order. */
  readonly sent: string[] = [];
  /** Runs started. */
  runs = 0;

  /**
   * Runs a script in a fresh context.
   *
   * @param script The code and its bounds.
   * @param host The host side.
   * @param signal Stops the run.
   * @returns How the run ended.
   */
  run(
    script: Parameters<Sandbox["run"]>[0],
    host: Parameters<Sandbox["run"]>[1],
    signal: AbortSignal,
  ): Promise<SandboxEnd> {
    const prepared = prepareScript(script.code, script.limits.maxCodeChars);
    if (!prepared.ok) return Promise.resolve({ kind: "rejected", problem: prepared.error });
    this.runs++;
    const context = vm.createContext(vm.constants.DONT_CONTEXTIFY, {
      codeGeneration: { strings: false, wasm: false },
    });
    const harness = vm.runInContext(HARNESS_SOURCE, context);
    const factory = vm.runInContext(scriptExpression(prepared.value.source), context, {
      filename: "script.js",
    });
    const { promise, resolve } = Promise.withResolvers<SandboxEnd>();
    const timer = setTimeout(
      () => resolve({ kind: "limit", limit: "timeoutMs" }),
      script.limits.timeoutMs,
    );
    const stop = () => resolve({ kind: "aborted" });
    signal.addEventListener("abort", stop);
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const api = harness({
      post: (text: string) => {
        this.sent.push(text);
        void Promise.resolve(host.message(text)).then((reply) => {
          if (reply !== undefined) api.receive(reply);
        });
      },
      finish: (text: string) => resolve({ kind: "done", text }),
      schedule: (task: () => void) => {
        const id = setTimeout(() => {
          timers.delete(id);
          task();
        }, 0);
        timers.add(id);
      },
    }, harnessSettings(script.limits, 1));
    api.start(factory);
    return promise.finally(() => {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      for (const id of timers) clearTimeout(id);
    });
  }
}
