// Two `unfold approve` processes at once, each approving another tool of one upstream: both read
// the lock before listing the upstream, so without the lock file's transaction the second
// rename dropped the first's approval. Real processes, real flock, a real stdio upstream.
import { deepEqual, equal } from "node:assert/strict";
import { runCli } from "../gateway/_gateway.ts";
import { fake, writeChaosConfig } from "../gateway/chaos/_chaos.ts";
import { denoEnv } from "../mcp/_servers.ts";
import { readLock } from "../../src/cli/trust.ts";

const ROUNDS = 4;

Deno.test(`two unfold approve processes at once keep both approvals (${ROUNDS} rounds)`, async () => {
  const { path, dir } = await writeChaosConfig({ h: fake("healthy") }, { trust: "pin" });
  const lock = `${dir}/unfold.lock.json`;
  const env = { ...denoEnv(), UNFOLD_CONFIG_DIR: `${dir}/unfold` };
  let lost = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await Deno.remove(lock).catch(() => {});
    const runs = await Promise.all(
      ["h/echo", "h/pid"].map((id) => runCli(["approve", "--config", path, id], env)),
    );
    for (const run of runs) equal(run.code, 0, run.stderr);
    const read = await readLock(lock);
    const ids = read.ok ? Object.keys(read.value?.tools ?? {}) : [];
    lost += 2 - ids.length;
  }
  equal(lost, 0, `${lost} approvals lost over ${ROUNDS} rounds`);
  deepEqual((await Deno.stat(lock)).mode! & 0o777, 0o600);
  await Deno.remove(dir, { recursive: true });
});
