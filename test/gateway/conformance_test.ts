import { startHttpGateway, writeConfig } from "./_gateway.ts";
import { conformance } from "./_conformance.ts";

Deno.test("the official conformance suite passes against the gateway's /mcp under Deno", async (t) => {
  const { path, dir } = await writeConfig();
  await using gateway = await startHttpGateway(path);
  try {
    await conformance(t, gateway.url);
  } finally {
    await gateway.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
