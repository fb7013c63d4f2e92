// `deno task install` on a fresh clone, with an empty Deno cache and a home of its own: `unfold`
// lands in DENO_INSTALL_ROOT, runs from any folder, installs again over itself, and
// `deno task uninstall` takes it away.
import { equal, match, ok } from "node:assert/strict";
import { cloneRepo, machineEnv, ROOT } from "../_deno.ts";

async function run(command: string, args: string[], cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command(command, { args, cwd, env, clearEnv: true, stdin: "null" })
    .output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test({
  name:
    "deno task install puts unfold on the PATH of a fresh clone, again, and uninstall removes it",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const temp = await Deno.makeTempDir({ prefix: "unfold-install-" });
    try {
      const repo = await cloneRepo(temp);
      await Deno.mkdir(`${temp}/home`);
      await Deno.mkdir(`${temp}/elsewhere`);
      const bin = `${temp}/root/bin`;
      // The user's machine: its proxy and certificates, an empty Deno cache, a home of its own.
      const env: Record<string, string> = {
        ...machineEnv(["PATH"]),
        HOME: `${temp}/home`,
        DENO_DIR: `${temp}/cache`,
        DENO_INSTALL_ROOT: `${temp}/root`,
        DENO_NO_UPDATE_CHECK: "1",
      };
      const deno = Deno.execPath();
      for (const time of ["first", "second"]) {
        const installed = await run(deno, ["task", "--quiet", "install"], repo, env);
        equal(installed.code, 0, `${time}: ${installed.stderr}`);
        match(installed.stdout, new RegExp(`^Installed unfold: ${bin}/unfold `));
        ok(installed.stdout.includes(`export PATH="${bin}:$PATH"`), installed.stdout);
      }
      // The command turns Deno's update check off: no start of the gateway asks the network.
      ok((await Deno.readTextFile(`${bin}/unfold`)).includes("export DENO_NO_UPDATE_CHECK=1"));
      const path = { ...env, PATH: `${bin}:${env.PATH}` };
      const version = await run("unfold", ["--version"], `${temp}/elsewhere`, path);
      equal(version.code, 0, version.stderr);
      equal(
        version.stdout.trim(),
        JSON.parse(await Deno.readTextFile(`${repo}/deno.json`)).version,
      );
      const help = await run("unfold", ["--help"], `${temp}/elsewhere`, path);
      equal(help.code, 0, help.stderr);
      match(help.stdout, /\n {2}setup /);
      // On the PATH already: no advice to add it.
      const again = await run(deno, ["task", "--quiet", "install"], repo, path);
      ok(!again.stdout.includes("export PATH"), again.stdout);
      const removed = await run(deno, ["task", "--quiet", "uninstall"], repo, env);
      equal(removed.code, 0, removed.stderr);
      equal(await Deno.stat(`${bin}/unfold`).then(() => true, () => false), false);
    } finally {
      await Deno.remove(temp, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "deno task install refuses to replace a program named unfold it did not install, and --force does",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const temp = await Deno.makeTempDir({ prefix: "unfold-install-other-" });
    try {
      const bin = `${temp}/root/bin`;
      await Deno.mkdir(bin, { recursive: true });
      const other = "#!/bin/sh\necho 'the other unfold'\n";
      await Deno.writeTextFile(`${bin}/unfold`, other, { mode: 0o755 });
      const env: Record<string, string> = {
        ...machineEnv(["PATH", "HOME", "DENO_DIR"]),
        DENO_INSTALL_ROOT: `${temp}/root`,
        DENO_NO_UPDATE_CHECK: "1",
      };
      const deno = Deno.execPath();
      for (const task of ["install", "uninstall"]) {
        const refused = await run(deno, ["task", "--quiet", task], ROOT, env);
        equal(refused.code, 1, `${task}: ${refused.stdout}${refused.stderr}`);
        match(refused.stderr, new RegExp(`${bin}/unfold is another program named unfold`));
        ok(refused.stderr.includes(`\n  deno task ${task} --force\n`), refused.stderr);
        equal(await Deno.readTextFile(`${bin}/unfold`), other, `${task} left it as it was`);
      }
      // Forced: replaced; then it is ours, so a second install (and the uninstall) needs no force.
      const forced = await run(deno, ["task", "--quiet", "install", "--force"], ROOT, env);
      equal(forced.code, 0, forced.stderr);
      ok((await Deno.readTextFile(`${bin}/unfold`)).includes("src/cli/main.ts"));
      // Another unfold earlier on the PATH is named.
      await Deno.mkdir(`${temp}/first`);
      await Deno.writeTextFile(`${temp}/first/unfold`, other, { mode: 0o755 });
      const path = { ...env, PATH: `${temp}/first:${bin}:${env.PATH ?? ""}` };
      const again = await run(deno, ["task", "--quiet", "install"], ROOT, path);
      equal(again.code, 0, again.stderr);
      ok(
        again.stdout.includes(
          `Another program named unfold comes first on your PATH: ${temp}/first/unfold.`,
        ),
        again.stdout,
      );
      const removed = await run(deno, ["task", "--quiet", "uninstall"], ROOT, env);
      equal(removed.code, 0, removed.stderr);
      equal(await Deno.stat(`${bin}/unfold`).then(() => true, () => false), false);
    } finally {
      await Deno.remove(temp, { recursive: true });
    }
  },
});
