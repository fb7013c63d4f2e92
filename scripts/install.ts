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
import { RUN_ENV, RUN_FLAGS } from "../src/cli/run_flags.ts";

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
  await withEnvironment(command, windows);
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

// The command `deno install` wrote sets RUN_ENV before it runs Deno (a shell script, or a .cmd
// file on Windows): edited in place, keeping the file's mode.
async function withEnvironment(command: string, windows: boolean): Promise<void> {
  const text = await Deno.readTextFile(command);
  const lines = Object.entries(RUN_ENV).map(([name, value]) =>
    windows ? `@SET ${name}=${value}` : `export ${name}=${value}`
  );
  const missing = lines.filter((line) => !text.includes(line));
  if (missing.length === 0) return;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const [first, ...rest] = text.split(eol);
  // After the shebang (or @ECHO OFF): the rest of the script is deno install's own.
  const next = [first, ...missing, ...rest].join(eol);
  const mode = (await Deno.stat(command)).mode ?? 0o755;
  const temp = `${command}.unfold-${crypto.randomUUID()}`;
  await Deno.writeTextFile(temp, next, { mode });
  await Deno.rename(temp, command);
}

if (import.meta.main) Deno.exit(await main(Deno.args));
