/**
 * The `unfold` command's code mode sandbox, loaded at the first run: the Deno sandbox's module
 * (acorn, the harness) took 33 to 91 ms to import, which a gateway's start — raced against a
 * host's wait for it — does not spend for scripts it may never run.
 *
 * @module
 */

import type { Sandbox, SandboxEnd } from "../code_mode/sandbox.ts";
import type { DenoSandbox } from "../deno/code_sandbox.ts";

/**
 * A sandbox that imports and makes the Deno sandbox at its first run (after which one process
 * is kept started ahead for the next run), and stops it on `close()`.
 *
 * @returns The sandbox.
 *
 * @example Usage
 * ```ts
 * import { lazySandbox } from "./lazy_sandbox.ts";
 *
 * const sandbox = lazySandbox();
 * await sandbox.close(); // nothing was loaded
 * ```
 */
export function lazySandbox(): Sandbox & { close(): Promise<void> } {
  let loaded: Promise<DenoSandbox> | undefined;
  return {
    async run(script, host, signal): Promise<SandboxEnd> {
      let sandbox: DenoSandbox;
      try {
        sandbox = await (loaded ??= import("../deno/code_sandbox.ts").then((module) =>
          new module.DenoSandbox({ prewarm: 1 })
        ));
      } catch (error) {
        loaded = undefined;
        return { kind: "failed", message: `cannot load the sandbox: ${String(error)}` };
      }
      return await sandbox.run(script, host, signal);
    },
    async close() {
      const sandbox = await loaded?.catch(() => undefined);
      await sandbox?.close();
    },
  };
}
