/**
 * `deno task install` and `deno task uninstall`: puts the `unfold` command on the PATH (a
 * `deno install -g` of the CLI with this clone's config, re-runnable) or takes it off, and says
 * where it went and what to add to the PATH. Honours `DENO_INSTALL_ROOT` as `deno install` does.
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { RUN_FLAGS } from "../src/cli/run_flags.ts";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

function binDir(env: Record<string, string>): string {
  const root = env.DENO_INSTALL_ROOT ??
    join(env.HOME ?? env.USERPROFILE ?? ".", ".deno");
  return join(root, "bin");
}

async function deno(args: string[]): Promise<boolean> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return out.success;
}

async function main(argv: string[]): Promise<number> {
  const env = Deno.env.toObject();
  const bin = binDir(env);
  const windows = Deno.build.os === "windows";
  const command = join(bin, windows ? "unfold.cmd" : "unfold");
  if (argv[0] === "--uninstall") {
    if (!(await deno(["uninstall", "-g", "--root", dirname(bin), "unfold"]))) return 1;
    console.log(`Removed ${command}`);
    return 0;
  }
  const installed = await deno([
    "install",
    "-g",
    "-f",
    "-n",
    "unfold",
    "--root",
    dirname(bin),
    "--config",
    join(ROOT, "deno.json"),
    ...RUN_FLAGS,
    join(ROOT, "src/cli/main.ts"),
  ]);
  if (!installed) return 1;
  console.log(`Installed unfold: ${command} (it runs this clone's src/cli/main.ts)`);
  const onPath = (env.PATH ?? env.Path ?? "").split(delimiter).includes(bin);
  if (!onPath) {
    console.log(
      windows
        ? `Add ${bin} to your PATH (Settings > Environment Variables), then open a new terminal.`
        : `Add it to your PATH: export PATH="${bin}:$PATH" (in ~/.profile, ~/.bashrc or ~/.zshrc)`,
    );
  }
  console.log("Next: unfold setup HOST (unfold --help lists the hosts)");
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
