/**
 * Files unfold reads, replaced by what is not a regular file: a named pipe (FIFO) with no writer
 * in place of a snapshot, the lock, a sign-in record or the config, and a folder as the config.
 * Each is skipped (refused, for the config) with one line; the gateway starts and SIGTERM stops
 * it. Before, opening a FIFO waited for a writer for ever (the size check read `stat`: 0 bytes).
 *
 * @module
 */

import { equal, match, ok } from "node:assert/strict";
import { oauthRecordPath } from "../../../src/mcp/oauth/file_store.ts";
import { denoEnv } from "../../mcp/_servers.ts";
import { cliCommand, type CliRun } from "../_gateway.ts";
import {
  fake,
  FAST,
  httpFake,
  RawGateway,
  snapshotFiles,
  snapshotsWritten,
  writeChaosConfig,
} from "./_chaos.ts";

// Hang guards, not timings: a gateway blocked on a pipe never gets there at all.
const HANG_GUARD_MS = 30_000;

async function mkfifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  equal(made.code, 0, new TextDecoder().decode(made.stderr));
}

// Runs the CLI to its end, killed if it is still running after the guard.
async function runGuarded(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const { command, args: full } = cliCommand(...args);
  const output = await new Deno.Command(command, {
    args: full,
    env: { ...denoEnv(), ...env },
    stdin: "null",
    signal: AbortSignal.timeout(HANG_GUARD_MS),
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

// Runs a test on a gateway; a gateway that outlived its test (SIGTERM did not stop it) is killed.
async function onGateway(gateway: RawGateway, test: () => Promise<void>): Promise<void> {
  try {
    await test();
  } finally {
    await gateway.closeStdin();
    try {
      gateway.child.kill("SIGKILL");
    } catch {
      // already gone
    }
    await gateway.exited();
  }
}

// SIGTERM stops the gateway: it exits (code 0) before the guard.
async function stopsOnSigterm(gateway: RawGateway): Promise<void> {
  gateway.child.kill("SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status = await Promise.race([
    gateway.exited(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error("SIGTERM did not stop the gateway")),
        HANG_GUARD_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  equal(status.code, 0);
}

for (const command of ["gateway", "inspect"]) {
  Deno.test(`unfold ${command} refuses a named pipe or a folder as its config in one line`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "unfold-files-" });
    await mkfifo(`${dir}/mcp.json`);
    for (const config of [`${dir}/mcp.json`, dir]) {
      const run = await runGuarded([command, "--config", config]);
      equal(run.code, 1, run.stderr);
      equal(run.stderr.trim().split("\n").length, 1, run.stderr);
      match(
        run.stderr,
        /^unfold: cannot read the config "[^"]+": it is (not a regular file|a folder; give the config file in it)\n$/,
      );
    }
  });
}

Deno.test("a named pipe in place of a snapshot is skipped with one line; the gateway starts and stops on SIGTERM", async () => {
  const cache = await Deno.makeTempDir({ prefix: "unfold-cache-" });
  const env = { UNFOLD_CACHE_DIR: cache };
  const { path } = await writeChaosConfig({ one: fake("healthy") });
  {
    await using first = new RawGateway(path, [], env);
    await first.initialize();
    await snapshotsWritten(cache, 1);
  }
  const [snapshot] = await snapshotFiles(cache);
  await Deno.remove(snapshot!);
  await mkfifo(snapshot!);
  const gateway = new RawGateway(path, [], env);
  await onGateway(gateway, async () => {
    await gateway.initialize(HANG_GUARD_MS);
    equal(RawGateway.text(await gateway.execute("one/echo", { text: "live" })), "live");
    const skipped = gateway.log.filter((line) => /ignoring the snapshot of "one"/.test(line));
    equal(skipped.length, 1, gateway.log.join("\n"));
    match(skipped[0]!, /it is not a regular file/);
    await stopsOnSigterm(gateway);
  });
});

Deno.test("a named pipe in place of the lock is skipped with one line: nothing is approved, and gateway and inspect start", async () => {
  const { path, dir } = await writeChaosConfig({ one: fake("healthy") });
  await mkfifo(`${dir}/unfold.lock.json`);
  const line = /unfold\.lock\.json is not a regular file: it is skipped/;
  const gateway = new RawGateway(path);
  await onGateway(gateway, async () => {
    await gateway.initialize(HANG_GUARD_MS);
    // Trust "notify" (the default): the tools work.
    equal(RawGateway.text(await gateway.execute("one/echo", { text: "works" })), "works");
    equal(gateway.log.filter((l) => line.test(l)).length, 1, gateway.log.join("\n"));
    await stopsOnSigterm(gateway);
  });
  const inspect = await runGuarded(["inspect", "--config", path]);
  equal(inspect.code, 0, inspect.stderr);
  match(inspect.stderr, line);
  match(inspect.stdout, /one/);
});

Deno.test("a named pipe in place of a sign-in record fails its server with one line; the others start, and SIGTERM stops the gateway", async () => {
  await using remote = await httpFake("healthy");
  const home = await Deno.makeTempDir({ prefix: "unfold-home-" });
  const record = await oauthRecordPath(home, "remote", remote.url);
  await Deno.mkdir(`${home}/oauth`, { recursive: true });
  await mkfifo(record);
  const env = { UNFOLD_CONFIG_DIR: home };
  const { path } = await writeChaosConfig({
    remote: { url: remote.url },
    one: fake("healthy"),
  }, { ...FAST, startupTimeoutMs: 2_000 });
  const gateway = new RawGateway(path, [], env);
  await onGateway(gateway, async () => {
    await gateway.initialize(HANG_GUARD_MS);
    equal(RawGateway.text(await gateway.execute("one/echo", { text: "up" })), "up");
    await gateway.line(
      /remote: failed \([^\n]*sign-in record[^\n]*is not a regular file/,
      HANG_GUARD_MS,
    );
    ok(!(await gateway.overview()).includes("remote/echo"));
    await stopsOnSigterm(gateway);
  });
  const inspect = await runGuarded(["inspect", "--config", path], env);
  equal(inspect.code, 0, inspect.stderr);
  // Failed, or already starting again after a failure (FAST restarts within milliseconds): the
  // reason stays beside the state either way.
  match(
    inspect.stdout,
    /remote\s+(failed|starting): Cannot connect to "remote": Cannot read the sign-in/,
  );
});
