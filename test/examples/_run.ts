/**
 * Runs an example to completion (at most 90 s) from the repository root and returns its output,
 * failing with its error output when it exits non-zero.
 *
 * @module
 */

import { equal } from "node:assert/strict";

const ROOT = new URL("../..", import.meta.url).pathname;

/**
 * Runs a command from the repository root.
 *
 * @param command The program (`Deno.execPath()`, `python3`, `bash`).
 * @param args Its arguments.
 * @param env Extra environment variables (`DENO` is always this Deno).
 * @returns What it printed on stdout.
 */
export async function runExample(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  const child = new Deno.Command(command, {
    args,
    cwd: ROOT,
    env: { ...env, DENO: Deno.execPath() },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const deadline = setTimeout(() => child.kill("SIGKILL"), 90_000);
  const { code, stdout, stderr } = await child.output();
  clearTimeout(deadline);
  const out = new TextDecoder().decode(stdout);
  equal(code, 0, `${out}\n${new TextDecoder().decode(stderr)}`);
  return out;
}
