import { equal, match, ok } from "node:assert/strict";
import { fake, FAST, memoryServer, RawGateway, writeChaosConfig } from "./_chaos.ts";

const MEMORY_BOUND = 600 * 1024 * 1024;

Deno.test("a tool the catalogue refuses is quarantined at start and at every re-list, and every other server stays", async () => {
  const { path } = await writeChaosConfig((dir) => ({
    memory: memoryServer(dir),
    typed: fake("refused-tool", "--refusal", "type"),
    deep: fake("refused-tool", "--refusal", "depth"),
  }));
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  const instructions = await gateway.overview();
  // Named in the overview with the reason; the other tools of the same server stay.
  match(instructions, /typed\/odd_type/);
  match(instructions, /not a valid JSON Schema/);
  match(instructions, /deep\/deep/);
  const echo = await gateway.execute("typed/echo", { text: "still here" });
  equal(RawGateway.text(echo), "still here");
  const graph = await gateway.execute("memory/read_graph");
  ok(graph.isError !== true, RawGateway.text(graph));
  await gateway.until(
    () => gateway.log.some((line) => /typed\/odd_type quarantined/.test(line)),
    "the quarantine on stderr",
  );

  ok(await gateway.rss() < MEMORY_BOUND);
});

Deno.test("a tool refused at a re-list is quarantined, and the catalogue keeps following every upstream", async () => {
  const { path } = await writeChaosConfig((dir) => ({
    memory: memoryServer(dir),
    later: fake("refuse-after-relist"),
    crasher: fake("crash-mid-call"),
    grower: fake("changing-definition"),
  }), { ...FAST, restartDelayMs: 600_000, restartMaxDelayMs: 600_000 }); // lost stays lost
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  await gateway.execute("later/poison");
  await gateway.until(async () => /later\/odd_type/.test(await gateway.overview()), "re-list");
  const crash = await gateway.execute("crasher/crash");
  equal(crash.isError, true);
  await gateway.until(async () => /crasher \(lost/.test(await gateway.overview()), "lost");
  const again = await gateway.execute("later/echo", { text: "after" });
  equal(RawGateway.text(again), "after");
  // Another server's change still reaches the catalogue.
  await gateway.execute("grower/bump");
  await gateway.until(async () => {
    const found = await gateway.bridge({ action: "describe", name: "grower/echo" });
    return /definition 1/.test(RawGateway.text(found));
  }, "the changed definition");
  ok(await gateway.rss() < MEMORY_BOUND);
});

Deno.test("a server listing thousands of refused tools costs a bounded overview and log", async () => {
  const { path } = await writeChaosConfig({
    broken: fake("many-refused", "--count", "2000"),
    fine: fake("healthy"),
  });
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  const instructions = await gateway.overview();
  match(instructions, /and 1995 more of broken/);
  ok(instructions.length < 16 * 1024, `${instructions.length} characters`);
  const echo = await gateway.execute("broken/echo", { text: "kept" });
  equal(RawGateway.text(echo), "kept");
  await gateway.until(
    () => gateway.log.some((line) => /1950 more tools quarantined/.test(line)),
    "the summary line",
  );
  const logged = gateway.log.filter((line) => /odd_type_\d+ quarantined: /.test(line));
  equal(logged.length, 50);
  ok(await gateway.rss() < MEMORY_BOUND);
});
