import { equal, match, ok } from "node:assert/strict";
import { fake, httpFake, RawGateway, writeChaosConfig } from "./_chaos.ts";

Deno.test("Streamable HTTP upstreams that fail or vanish fail alone, and the stdio neighbour answers", async () => {
  await using failing = await httpFake("error-code");
  await using vanishing = await httpFake("healthy");
  const { path } = await writeChaosConfig({
    healthy: fake("healthy"),
    failing: { url: failing.url },
    vanishing: { url: vanishing.url },
  });
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  const echo = await gateway.execute("failing/echo", { text: "over http" });
  equal(RawGateway.text(echo), "over http");
  const failed = await gateway.execute("failing/fail");
  equal(failed.isError, true);
  match(RawGateway.text(failed), /failing\/fail/);
  vanishing.child.kill("SIGKILL");
  await vanishing.child.status;
  const gone = await gateway.execute("vanishing/echo", { text: "anyone?" });
  equal(gone.isError, true);
  match(RawGateway.text(gone), /vanishing\/echo/);
  const still = await gateway.execute("healthy/echo", { text: "still here" });
  equal(RawGateway.text(still), "still here");
  const again = await gateway.execute("failing/echo", { text: "again" });
  equal(RawGateway.text(again), "again");
  ok(await gateway.rss() < 600 * 1024 * 1024);
});
