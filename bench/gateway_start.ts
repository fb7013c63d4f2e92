/**
 * How long a host waits for `initialize` when one upstream never answers `tools/list`: the
 * gateway CLI over stdio with server-memory and a silent fake upstream, timed from spawning the
 * gateway to its `initialize` answer (so the CLI's own start is included), then the time to exit
 * after the host closes stdin. Uses the `unfold` defaults unless a startup timeout is given.
 *
 * Run: `deno run -A bench/gateway_start.ts [startupTimeoutMs]`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { fake, memoryServer, RawGateway, writeChaosConfig } from "../test/gateway/chaos/_chaos.ts";

const timeout = Deno.args[0] === undefined ? {} : { startupTimeoutMs: Number(Deno.args[0]) };
const { path, dir } = await writeChaosConfig(
  (dir) => ({ memory: memoryServer(dir), silent: fake("slow-start") }),
  timeout,
);
const gateway = new RawGateway(path);
const spawned = performance.now();
await gateway.initialize(120_000);
const answered = performance.now();
await gateway.closeStdin();
await gateway.exited();
const exited = performance.now();
console.log(`initialize answered ${Math.round(answered - spawned)} ms after spawn`);
console.log(`exited ${Math.round(exited - answered)} ms after stdin closed`);
await Deno.remove(dir, { recursive: true });
