import { equal, ok } from "node:assert/strict";
import { fake, FAST, memoryServer, RawGateway, writeChaosConfig } from "./_chaos.ts";

// What the gateway may hold with 50,000 upstream tools and a megabyte description (about 300 MB
// measured): generous for a loaded CI machine, far below what an unbounded path costs (gigabytes).
const MEMORY_BOUND = 900 * 1024 * 1024;

async function stillAnswers(gateway: RawGateway): Promise<void> {
  const graph = await gateway.execute("memory/read_graph");
  ok(graph.isError !== true, RawGateway.text(graph));
  const echo = await gateway.execute("healthy/echo", { text: "fine" });
  equal(RawGateway.text(echo), "fine");
}

Deno.test("misbehaving upstreams never hurt their neighbours: garbage, server requests, huge and many tools, list_changed storms", async () => {
  const { path } = await writeChaosConfig((dir) => ({
    memory: memoryServer(dir),
    healthy: fake("healthy"),
    garbage: fake("garbage"),
    asking: fake("server-requests"),
    huge: fake("huge-description"),
    many: fake("many-tools", "--count", "50000"),
    storm: fake("list-changed-storm", "--count", "5000"),
    // 50,000 tools take a while to list; a server that failed stays failed here, so what the
    // overview says of it is not a race with its restart (the restart suite tests restarts).
  }), { ...FAST, startupTimeoutMs: 30_000, restartDelayMs: 600_000, restartMaxDelayMs: 600_000 });
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  await stillAnswers(gateway);
  // Garbage between messages is skipped; the server still answers.
  const noisy = await gateway.execute("garbage/echo", { text: "through the noise" });
  equal(RawGateway.text(noisy), "through the noise");
  // Requests from the server (sampling, elicitation, roots) are refused, and the call answers.
  const asked = await gateway.execute("asking/echo", { text: "asked" });
  equal(RawGateway.text(asked), "asked");
  // The huge description is capped wherever the model sees it.
  const described = await gateway.bridge({ action: "describe", name: "huge/huge" });
  ok(RawGateway.text(described).length < 64 * 1024);
  const overview = await gateway.overview();
  ok(overview.length < 512 * 1024, `the overview is ${overview.length} characters`);
  // 50,000 tools are searchable, or (where the client bounds a listing) the server is shown failed
  // with its reason, or, between two of its restarts (200 ms apart here), still starting: either
  // way the gateway answers and the neighbours do.
  const found = await gateway.bridge({ action: "search", query: "tool number 49999" });
  ok(
    /many\/tool_49999/.test(RawGateway.text(found)) ||
      /many \(failed|still starting[^\n]*\bmany\b/.test(overview),
    RawGateway.text(found),
  );
  await stillAnswers(gateway);
  const rss = await gateway.rss();
  ok(rss < MEMORY_BOUND, `${rss} bytes`);
});

Deno.test("failing calls fail alone: an error code, a malformed result, a crash mid-call", async () => {
  const { path } = await writeChaosConfig((dir) => ({
    memory: memoryServer(dir),
    healthy: fake("healthy"),
    failing: fake("error-code"),
    odd: fake("malformed-result"),
    crasher: fake("crash-mid-call"),
  }));
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  for (const name of ["failing/fail", "odd/odd", "crasher/crash"]) {
    const answer = await gateway.request("tools/call", {
      name: "mcp",
      arguments: { action: "describe", name },
    });
    equal(answer.error, undefined);
    const result = await gateway.request("tools/call", {
      name: "mcp",
      arguments: { action: "execute", name, arguments: {} },
    });
    equal(result.error, undefined, `${name}: ${JSON.stringify(result.error)}`);
    const body = result.result as { isError?: boolean; content: { text: string }[] };
    equal(body.isError, true, name);
    ok(body.content[0]!.text.includes(name.split("/")[0]!), `${name} names its server`);
    await stillAnswers(gateway);
  }
  ok(await gateway.rss() < MEMORY_BOUND);
});
