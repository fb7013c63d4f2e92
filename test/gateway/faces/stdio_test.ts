import { match } from "node:assert/strict";
import { gatewayScenario } from "../_scenario.ts";
import { stdioClient, writeConfig } from "../_gateway.ts";
import { startHttpEverything } from "../../mcp/_servers.ts";

Deno.test("the gateway over stdio serves the real servers through the bridge", async (t) => {
  await using remote = await startHttpEverything();
  const { path, dir } = await writeConfig({
    lab: true,
    broken: true,
    remoteUrl: remote.url,
    unfold: { pinned: ["memory/read_graph"] },
  });
  const client = await stdioClient(path);
  try {
    await t.step("an upstream that fails to start is named in the overview", async () => {
      const { tools } = await client.listTools();
      match(tools[0]?.description ?? "", /Unavailable servers[^\n]*broken \(failed to start: /);
    });
    await gatewayScenario(t, client, true);
  } finally {
    await client.close();
    await Deno.remove(dir, { recursive: true });
  }
});
