// Pinned tools of a lazy server that is not running: its snapshot can be stale either way, so a pin
// the snapshot lacks is a warning (not an exit), judged again when the server lists live.
import { deepEqual, equal, ok } from "node:assert/strict";
import { FAST, memoryServer, RawGateway, writeChaosConfig } from "./_chaos.ts";

async function snapshotFiles(cache: string): Promise<string[]> {
  const files: string[] = [];
  try {
    for await (const entry of Deno.readDir(`${cache}/snapshots`)) {
      if (entry.name.endsWith(".json")) files.push(`${cache}/snapshots/${entry.name}`);
    }
  } catch {
    // Not written yet.
  }
  return files;
}

async function listed(gateway: RawGateway): Promise<string[]> {
  const answer = await gateway.request("tools/list");
  return (answer.result as { tools: { name: string }[] }).tools.map((tool) => tool.name);
}

Deno.test("lazy: a pin its stale snapshot lacks is a warning and is listed once the server lists it; a pin the live server lacks is reported once", async () => {
  const cache = await Deno.makeTempDir({ prefix: "unfold-cache-" });
  const env = { UNFOLD_CACHE_DIR: cache };
  const { path } = await writeChaosConfig((dir) => ({ memory: memoryServer(dir) }), {
    ...FAST,
    start: "lazy",
  });
  {
    // The first start lists server-memory once and keeps its snapshot.
    await using first = new RawGateway(path, [], env);
    await first.initialize(30_000);
    await first.until(
      async () => (await snapshotFiles(cache)).length === 1,
      "the snapshot",
      30_000,
    );
  }
  // The snapshot goes stale both ways: read_graph gone from it, a tool the server lacks added.
  const [file] = await snapshotFiles(cache);
  const snapshot = JSON.parse(await Deno.readTextFile(file!)) as { tools: { name: string }[] };
  snapshot.tools = snapshot.tools.filter((tool) => tool.name !== "read_graph");
  snapshot.tools.push({ name: "ghost", description: "Gone", inputSchema: { type: "object" } } as {
    name: string;
  });
  await Deno.writeTextFile(file!, JSON.stringify(snapshot));
  // Pins live in the unfold block: the server entry, and so its snapshot, stays the same.
  const config = JSON.parse(await Deno.readTextFile(path));
  config.unfold.pinned = ["memory/read_graph", "memory/ghost"];
  await Deno.writeTextFile(path, JSON.stringify(config));

  await using gateway = new RawGateway(path, [], env);
  await gateway.initialize(30_000);
  deepEqual(await listed(gateway), ["mcp", "discover", "memory__ghost"]);
  const warning =
    'unfold: the pinned tool "memory/read_graph" is not in the last listing of "memory" (its snapshot): it is listed once "memory" starts and lists it, checked again then';
  await gateway.until(() => gateway.log.includes(warning), "the snapshot warning");
  const wrong =
    'unfold: the pinned tool "memory/ghost" is not listed by "memory", so it is left out of tools/list: correct "unfold.pinned"';
  ok(!gateway.log.includes(wrong), gateway.log.join("\n"));

  // A call starts the server; its live listing decides both pins.
  const opened = await gateway.execute("memory/open_nodes", { names: [] });
  ok(opened.isError !== true, RawGateway.text(opened));
  await gateway.until(() => gateway.log.includes(wrong), "the wrong pin's line");
  deepEqual(await listed(gateway), ["mcp", "discover", "memory__read_graph"]);
  ok(
    gateway.notifications.some((n) => n.method === "notifications/tools/list_changed"),
    JSON.stringify(gateway.notifications),
  );
  // Said once, however often the server is listed again.
  await gateway.execute("memory/open_nodes", { names: [] });
  equal(gateway.log.filter((line) => line === wrong).length, 1);
  equal(gateway.log.filter((line) => line === warning).length, 1);
});
