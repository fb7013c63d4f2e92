import { doesNotMatch, equal, match, ok } from "node:assert/strict";
import { fake, FAST, RawGateway, writeChaosConfig } from "./_chaos.ts";

// How long the slow server takes to list its tools: far longer than the startup timeout.
const DELAY_MS = 8_000;
const STARTUP_MS = 1_500;

Deno.test("a second start answers from the snapshot of the last: a slow server's tools are found before it is up", async () => {
  const cache = await Deno.makeTempDir({ prefix: "unfold-cache-" });
  const { path } = await writeChaosConfig({
    slow: fake("slow-start", "--delay-ms", String(DELAY_MS)),
  }, { ...FAST, startupTimeoutMs: STARTUP_MS });
  const env = { UNFOLD_CACHE_DIR: cache };
  {
    await using first = new RawGateway(path, [], env);
    await first.initialize(20_000);
    // Without a snapshot the host is answered after the startup timeout, the slow server pending.
    match(await first.overview(), /still starting[^\n]*slow/);
    await first.until(async () => (await snapshots(cache)).length === 1, "the snapshot", 30_000);
  }
  await using second = new RawGateway(path, [], env);
  const spawned = Date.now();
  await second.initialize(20_000);
  const found = await second.bridge({ action: "search", query: "echoes its text" });
  const elapsed = Date.now() - spawned;
  match(RawGateway.text(found), /slow\/echo/);
  // deno-lint-ignore no-console
  console.log(`search answered from the snapshot ${elapsed} ms after spawn`);
  const described = await second.bridge({ action: "describe", name: "slow/echo" });
  ok(described.isError !== true, RawGateway.text(described));
  // Still starting, said so, and its tools kept from the last start: the answer came from the
  // snapshot, before the slow server could list anything.
  // Listed from the last start, its tools are there to search, describe and call: the overview
  // does not say "still starting" (a host that reads it once would keep that all session).
  const overview = await second.overview();
  match(overview, /slow\//);
  doesNotMatch(overview, /still starting/);
  // An execute waits for the live connection within the call's timeout (the default, 300 s),
  // not the startup timeout, and runs.
  const echo = await second.bridge({
    action: "execute",
    name: "slow/echo",
    arguments: { text: "live" },
  });
  equal(RawGateway.text(echo), "live");
  equal((await snapshots(cache)).length, 1);
});

async function snapshots(cache: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(`${cache}/snapshots`)) names.push(entry.name);
  } catch {
    // Not written yet.
  }
  return names.filter((name) => name.endsWith(".json"));
}
