import { deepEqual, equal, match, ok } from "node:assert/strict";
import { fake, FAST, memoryServer, RawGateway, writeChaosConfig } from "./_chaos.ts";

const MEMORY_BOUND = 600 * 1024 * 1024;
// A call of a server that has not listed waits for it within the call's timeout: short here, so
// that the call of the silent server's tool answers within the raw client's 20 s.
const CALL_TIMEOUT_MS = 3_000;

Deno.test("initialize is answered within the startup timeout whatever the upstreams do, and a slow server joins the catalogue", async () => {
  const { path } = await writeChaosConfig((dir) => ({
    memory: memoryServer(dir),
    silent: fake("slow-start"), // never answers tools/list
    mute: fake("never-initialize"),
    late: fake("slow-start", "--delay-ms", "4000"),
  }), { ...FAST, startupTimeoutMs: 1_500, callTimeoutMs: CALL_TIMEOUT_MS });
  await using gateway = new RawGateway(path);
  // Below the 60 s a silent upstream would cost with the SDK's request timeout, with room for a
  // loaded machine to start the gateway itself.
  await gateway.initialize(45_000);
  const overview = await gateway.overview();
  match(overview, /still starting[^\n]*silent/);
  ok(!/late\/echo/.test(overview), "the late server has not joined yet");
  // The gateway's own tools only (the bridge and discover): nothing pinned, nothing joined yet.
  const tools = await gateway.request("tools/list");
  deepEqual((tools.result as { tools: { name: string }[] }).tools.map((tool) => tool.name), [
    "mcp",
    "discover",
  ]);
  // server-memory joins as soon as it is ready (at once on an idle machine).
  await gateway.until(async () => {
    const graph = await gateway.execute("memory/read_graph");
    return graph.isError !== true;
  }, "server-memory");
  // The late server joins: its state line, then its tools are in the catalogue (a tools/list
  // is answered once the gateway has taken the change in).
  await gateway.line(/late: ready/);
  match(await gateway.overview(), /late\/echo|late:/);
  // Unannounced: no list_changed before every server has had its first listing, and silent and
  // mute never list (a host that re-lists at each announcement is spared the churn).
  const announced = () =>
    gateway.notifications.filter((n) => n.method === "notifications/tools/list_changed");
  deepEqual(announced(), []);
  const echo = await gateway.execute("late/echo", { text: "joined" });
  equal(RawGateway.text(echo), "joined");
  const early = await gateway.execute("silent/echo");
  equal(early.isError, true, "a tool of a server still starting is not in the catalogue");
  match(RawGateway.text(early), /"silent" is configured and still starting/);
  ok(await gateway.rss() < MEMORY_BOUND);
});

Deno.test("a lost upstream is restarted with backoff, a crash loop stays bounded, and the others keep answering", async () => {
  const { path } = await writeChaosConfig((dir) => ({
    memory: memoryServer(dir),
    crasher: fake("crash-mid-call"),
    looping: fake("crash-at-start"),
    flaky: fake("crash-later", "--delay-ms", "100"),
  }));
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  const crashed = await gateway.execute("crasher/crash");
  equal(crashed.isError, true);
  match(RawGateway.text(crashed), /crasher/);
  // Restarted in the background: the same tool's neighbour answers again.
  await gateway.until(async () => {
    const echo = await gateway.bridge({
      action: "execute",
      name: "crasher/echo",
      arguments: { text: "back" },
    });
    return RawGateway.text(echo) === "back";
  }, "the restart");
  // Between attempts it is shown failed with its reason (during one, as still starting).
  await gateway.until(
    async () => /looping \(failed to start: [^\n]*crashing at start/.test(await gateway.overview()),
    "the failed state",
  );
  // The backoff (200 ms doubling to 800 ms) bounds the attempts over a stretch of time. The
  // stretch is a measurement, not a synchronisation: it is at least 3 s and lasts until one more
  // attempt is seen (an event); timers never fire early, so a loaded machine only makes fewer
  // attempts, and over E ms at most E / 800 + 2 start.
  const started = performance.now();
  const before = attempts(gateway.log, "looping");
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  await gateway.until(() => attempts(gateway.log, "looping") > before, "a retry of looping");
  const windowMs = performance.now() - started;
  const during = attempts(gateway.log, "looping") - before;
  ok(
    during <= windowMs / FAST.restartMaxDelayMs! + 2,
    `${during} restarts in ${Math.round(windowMs)} ms`,
  );
  const graph = await gateway.execute("memory/read_graph");
  ok(graph.isError !== true);
  ok(await gateway.rss() < MEMORY_BOUND);
});

function attempts(log: readonly string[], server: string): number {
  return log.filter((line) => line.includes(`[${server}] fake: crashing at start`)).length;
}
