/**
 * A home of its own for `unfold setup` run in this process: a temporary folder with `home/`, a
 * project folder in it, and unfold's config dir, and `setup()` called as the CLI calls it, its
 * lines kept.
 *
 * @module
 */

import { setup, type SetupOptions } from "../../../src/cli/setup.ts";
import type { CommitHooks } from "../../../src/utils/file_transaction.ts";

/** One run of setup: its exit code and lines. */
export interface SetupRun {
  code: number;
  out: string[];
  err: string[];
}

/** A sandbox. */
export interface Sandbox extends AsyncDisposable {
  dir: string;
  home: string;
  project: string;
  config: string;
  env: Record<string, string>;
  /** Runs `unfold setup HOST` with some of its flags, in the project folder. */
  run(
    host: string,
    flags?: Partial<Pick<SetupOptions, "file" | "scope" | "dryRun" | "undo">> & {
      hooks?: CommitHooks;
      env?: Record<string, string>;
      cwd?: string;
    },
  ): Promise<SetupRun>;
  read(path: string): Promise<string>;
  write(path: string, text: string | Uint8Array): Promise<void>;
  json(path: string): Promise<Record<string, unknown>>;
}

/**
 * A fresh sandbox (removed when disposed).
 *
 * @returns The sandbox.
 */
export async function sandbox(): Promise<Sandbox> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-setup-sandbox-" });
  const home = `${dir}/home`;
  const project = `${home}/app`;
  await Deno.mkdir(project, { recursive: true });
  const config = `${dir}/unfold/mcp.json`;
  const env = { HOME: home, PATH: "/nonexistent", UNFOLD_CONFIG_DIR: `${dir}/unfold` };
  const write = async (path: string, text: string | Uint8Array) => {
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    if (typeof text === "string") await Deno.writeTextFile(path, text);
    else await Deno.writeFile(path, text);
  };
  return {
    dir,
    home,
    project,
    config,
    env,
    async run(host, flags = {}) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await setup({
        host,
        config,
        dryRun: flags.dryRun ?? false,
        undo: flags.undo ?? false,
        env: flags.env ?? env,
        cwd: flags.cwd ?? project,
        ...(flags.file === undefined ? {} : { file: flags.file }),
        ...(flags.scope === undefined ? {} : { scope: flags.scope }),
        ...(flags.hooks === undefined ? {} : { hooks: flags.hooks }),
        print: (line) => out.push(line),
        error: (line) => err.push(line),
      });
      return { code, out, err };
    },
    read: (path) => Deno.readTextFile(path),
    write,
    json: async (path) => JSON.parse(await Deno.readTextFile(path)),
    async [Symbol.asyncDispose]() {
      await Deno.chmod(dir, 0o755).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * A JSON file's text, two-space indented.
 *
 * @param value The data.
 * @returns The text.
 */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
