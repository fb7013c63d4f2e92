import { deepEqual, equal, match, ok } from "node:assert/strict";
import { npmServer } from "../../mcp/_servers.ts";
import {
  childPids,
  exitOf,
  fake,
  FAST,
  memoryServer,
  noUpstreams,
  pidIn,
  RawGateway,
  snapshotsWritten,
  WAIT_MS,
  writeChaosConfig,
} from "./_chaos.ts";

// Small, so the test sees a server stopped; large enough that one stays up between a call and
// the look at the process table that follows it on a loaded machine.
const IDLE_MS = 3_000;

Deno.test("lazy: no upstream runs after tools/list, one runs after its first call, none after the idle timeout, and the next call starts it again", async () => {
  const cache = await Deno.makeTempDir({ prefix: "unfold-cache-" });
  const { path } = await writeChaosConfig((dir) => ({
    memory: memoryServer(dir),
    files: npmServer("@modelcontextprotocol/server-filesystem", dir),
  }), { ...FAST, start: "lazy", idleTimeoutMs: IDLE_MS });
  const env = { UNFOLD_CACHE_DIR: cache };
  {
    // Without snapshots each server is started once to be listed, then stopped.
    await using first = new RawGateway(path, [], env);
    await first.initialize();
    match(await first.overview(), /memory\/read_graph|memory:/);
    await snapshotsWritten(cache, 2);
    // Said on stderr in this order: listed once, then stopped; then the processes are gone.
    await first.line(/memory: stopped until/);
    ok(first.log.some((line) => /memory: ready/.test(line)), first.log.join("\n"));
    await noUpstreams(first.child.pid);
  }
  await using gateway = new RawGateway(path, [], env);
  await gateway.initialize();
  const overview = await gateway.overview();
  // Listed from the snapshots, shown as started on demand: never as lost or unavailable.
  match(overview, /memory\/read_graph|memory:/);
  match(overview, /Servers started when one of their tools is called[^\n]*memory, files/);
  ok(!/Unavailable|lost/.test(overview), overview);
  deepEqual(await childPids(gateway.child.pid), []);
  const graph = await gateway.execute("memory/read_graph");
  ok(graph.isError !== true, RawGateway.text(graph));
  equal((await childPids(gateway.child.pid)).length, 1);
  // The overview does not change as the server starts and stops (a host's cache of it holds).
  equal(await gateway.overview(), overview);
  // The pool says it stops the idle server, then its process exits.
  await gateway.line(/memory: stopped until/, IDLE_MS + WAIT_MS);
  await noUpstreams(gateway.child.pid);
  const again = await gateway.execute("memory/read_graph");
  ok(again.isError !== true, RawGateway.text(again));
  equal((await childPids(gateway.child.pid)).length, 1);
});

// Longer than the startup timeout, far shorter than the call timeout (the default 300 s).
const SLOW_MS = 3_000;

Deno.test("lazy: a call of a slow server waits for its start within the call timeout, and the gateway's exit stops a server still starting", async () => {
  const cache = await Deno.makeTempDir({ prefix: "unfold-cache-" });
  const { path, dir } = await writeChaosConfig((dir) => ({
    slow: fake("slow-start", "--delay-ms", String(SLOW_MS), "--pid-file", `${dir}/slow.pid`),
  }), { ...FAST, startupTimeoutMs: 1_000, start: "lazy" });
  const env = { UNFOLD_CACHE_DIR: cache };
  {
    await using first = new RawGateway(path, [], env);
    await first.initialize();
    await snapshotsWritten(cache, 1);
    await noUpstreams(first.child.pid);
  }
  await Deno.remove(`${dir}/slow.pid`);
  {
    await using second = new RawGateway(path, [], env);
    await second.initialize();
    deepEqual(await childPids(second.child.pid), []);
    await second.bridge({ action: "describe", name: "slow/echo" });
    const echo = await second.bridge({
      action: "execute",
      name: "slow/echo",
      arguments: { text: "waited" },
    });
    equal(RawGateway.text(echo), "waited");
  }
  await Deno.remove(`${dir}/slow.pid`);
  await using third = new RawGateway(path, [], env);
  await third.initialize();
  await third.bridge({ action: "describe", name: "slow/echo" });
  const id = "pending";
  void third.answer(id, 60_000).catch(() => {});
  await third.write(
    `${
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "mcp", arguments: { action: "execute", name: "slow/echo", arguments: {} } },
      })
    }\n`,
  );
  // The server is being started for the call when the host goes away.
  const child = await pidIn(`${dir}/slow.pid`);
  await third.closeStdin();
  equal((await third.exited()).code, 0);
  ok(await exitOf(child), "the upstream being started is still running");
});

Deno.test("an eager gateway given an idle timeout says once that it ignores it, and keeps its server running", async () => {
  const { path } = await writeChaosConfig({ one: fake("healthy") }, {
    ...FAST,
    idleTimeoutMs: 1,
  });
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  const echo = await gateway.execute("one/echo", { text: "up" });
  equal(RawGateway.text(echo), "up");
  equal(
    gateway.log.filter((line) =>
      /unfold\.idleTimeoutMs is ignored: it applies to "start": "lazy"/.test(line)
    ).length,
    1,
  );
  // Far past the idle timeout: still the one process, never stopped.
  const [pid] = await childPids(gateway.child.pid);
  ok(pid !== undefined);
  const again = await gateway.execute("one/echo", { text: "still" });
  equal(RawGateway.text(again), "still");
  deepEqual(await childPids(gateway.child.pid), [pid]);
  ok(!gateway.log.some((line) => /one: stopped/.test(line)), gateway.log.join("\n"));
});
