import { deepEqual, equal, match, ok } from "node:assert/strict";
import { exitOf, fake, pidIn, RawGateway, writeChaosConfig } from "./_chaos.ts";

// The host expects the gateway gone within 2 s of closing stdin; the bound adds scheduling slack
// for a loaded CI machine, far below "never" (what a host that sent no 2025-era initialize got).
const EXIT_BOUND_MS = 4_000;

async function gatewayWithPids(): Promise<{ gateway: RawGateway; pids: () => Promise<number[]> }> {
  // The fakes write their pid files relative to where they run: give them the directory.
  const { path, dir } = await writeChaosConfig((dir) => ({
    one: fake("healthy", "--pid-file", `${dir}/one.pid`),
    two: fake("healthy", "--pid-file", `${dir}/two.pid`),
  }));
  const gateway = new RawGateway(path);
  const pids = () => Promise.all(["one", "two"].map((name) => pidIn(`${dir}/${name}.pid`)));
  return { gateway, pids };
}

async function stopsWithItsUpstreams(
  gateway: RawGateway,
  pids: number[],
  stop: () => Promise<void>,
): Promise<void> {
  await stop();
  // An upper bound on the wait for the exit, which is the event; the bound is the promise.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status = await Promise.race([
    gateway.exited(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("the gateway is still running")), EXIT_BOUND_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  equal(status.code, 0);
  const exited = await Promise.all(pids.map((pid) => exitOf(pid)));
  ok(exited.every(Boolean), `upstreams still running: ${pids.filter((_, i) => !exited[i])}`);
}

Deno.test("the stdio gateway exits with its upstreams when the host closes stdin before any message", async () => {
  const { gateway, pids } = await gatewayWithPids();
  await using _ = gateway;
  const children = await pids();
  await gateway.line(/serving/);
  await stopsWithItsUpstreams(gateway, children, () => gateway.closeStdin());
});

Deno.test("the stdio gateway exits when a 2026-07-28 host closes stdin", async () => {
  const { gateway, pids } = await gatewayWithPids();
  await using _ = gateway;
  const children = await pids();
  const discover = await gateway.request("server/discover", {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "chaos", version: "1.0.0" },
    },
  });
  deepEqual((discover.result as { supportedVersions: string[] }).supportedVersions, [
    "2026-07-28",
  ]);
  await stopsWithItsUpstreams(gateway, children, () => gateway.closeStdin());
});

Deno.test("the stdio gateway exits with its upstreams on SIGTERM", async () => {
  const { gateway, pids } = await gatewayWithPids();
  await using _ = gateway;
  const children = await pids();
  await gateway.initialize();
  await stopsWithItsUpstreams(gateway, children, () => {
    gateway.child.kill("SIGTERM");
    return Promise.resolve();
  });
});

Deno.test("a host message over 10 MiB is answered with an error and the gateway stays up", async () => {
  const { gateway, pids } = await gatewayWithPids();
  await using _ = gateway;
  await pids();
  await gateway.initialize();
  const huge =
    `{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"mcp","arguments":{"action":"search","query":"${
      "x".repeat(11 << 20)
    }"}}}\n`;
  const answered = gateway.answer("huge");
  await gateway.write(huge);
  const error = (await answered).error as { code: number; message: string };
  equal(error.code, -32_600);
  match(error.message, /over 10485760 bytes/);
  const garbage = gateway.answer(null);
  await gateway.write("this is not JSON\n");
  equal(((await garbage).error as { code: number }).code, -32_700);
  const after = await gateway.execute("one/echo", { text: "still up" });
  deepEqual(after.content, [{ type: "text", text: "still up" }]);
});

Deno.test("the stdio gateway exits at once when stdin closes while an upstream is still listing", async () => {
  const { path, dir } = await writeChaosConfig((dir) => ({
    silent: fake("slow-start", "--pid-file", `${dir}/silent.pid`),
  }), { startupTimeoutMs: 60_000 });
  await using gateway = new RawGateway(path);
  const pid = await pidIn(`${dir}/silent.pid`);
  await stopsWithItsUpstreams(gateway, [pid], () => gateway.closeStdin());
});

for (
  const [state, behaviour] of [["still in its handshake", "never-initialize"], [
    "ready",
    "healthy",
  ]]
) {
  Deno.test(`the stdio gateway stops an upstream ${state} when it exits, even one that outlives its stdin`, async () => {
    const { path, dir } = await writeChaosConfig((dir) => ({
      mute: fake(behaviour!, "--linger", "--pid-file", `${dir}/mute.pid`),
    }), { startupTimeoutMs: 60_000 });
    await using gateway = new RawGateway(path);
    const pid = await pidIn(`${dir}/mute.pid`);
    await stopsWithItsUpstreams(gateway, [pid], () => gateway.closeStdin());
  });
}
