import { equal, ok } from "node:assert/strict";
import { startGatewayWorker } from "../workers/_gateway_worker.ts";
import { startHttpEverything } from "../mcp/_servers.ts";
import { httpClient } from "./_gateway.ts";
import { bridge } from "./_scenario.ts";

Deno.test("the Worker serves /mcp/NAME for each profile beside /mcp, and /mcp/unknown is 404", async () => {
  await using remote = await startHttpEverything();
  const upstreams = JSON.stringify({
    mcpServers: { remote: { url: remote.url } },
    unfold: { profiles: { sums: { tools: ["remote/get-*", "!remote/get-env"] } } },
  });
  const worker = await startGatewayWorker({ UNFOLD_UPSTREAMS: upstreams });
  try {
    const client = await httpClient(`${worker.url}/mcp/sums`);
    try {
      const found = await bridge(client, { action: "search", query: "echo back sum" });
      const ids = (found.structuredContent?.matches as { id: string }[]).map((m) => m.id);
      ok(ids.includes("remote/get-sum") && !ids.includes("remote/echo"), ids.join(", "));
      const hidden = await bridge(client, { action: "describe", name: "remote/echo" });
      equal(hidden.isError, true);
      await bridge(client, { action: "describe", name: "remote/get-sum" });
      const sum = await bridge(client, {
        action: "execute",
        name: "remote/get-sum",
        arguments: { a: 2, b: 3 },
      });
      ok(JSON.stringify(sum.content).includes("5"), JSON.stringify(sum.content));
    } finally {
      await client.close();
    }
    const everything = await httpClient(`${worker.url}/mcp`);
    try {
      const found = await bridge(everything, { action: "search", query: "echo back" });
      ok(
        (found.structuredContent?.matches as { id: string }[]).some((m) => m.id === "remote/echo"),
      );
    } finally {
      await everything.close();
    }
    const unknown = await fetch(`${worker.url}/mcp/unknown`, { method: "POST", body: "{}" });
    equal(unknown.status, 404);
    equal((await unknown.json()).code, "not_found");
  } finally {
    await worker.close();
  }
});
