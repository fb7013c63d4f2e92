import { deepEqual, equal, ok } from "node:assert/strict";
import { startGatewayWorker } from "../workers/_gateway_worker.ts";
import { startHttpEverything } from "../mcp/_servers.ts";
import { httpClient } from "./_gateway.ts";
import { conformance } from "./_conformance.ts";
import { bridge } from "./_scenario.ts";
import { assertServesPage } from "../page/_served.ts";

Deno.test("the Worker's /mcp (wrangler dev) serves an HTTP upstream, with sessions in Durable Objects", async (t) => {
  await using remote = await startHttpEverything();
  const upstreams = JSON.stringify({ mcpServers: { remote: { url: remote.url } } });
  const worker = await startGatewayWorker({ UNFOLD_UPSTREAMS: upstreams });
  const url = `${worker.url}/mcp`;
  try {
    const client = await httpClient(url);
    const transport = client.transport as unknown as {
      sessionId?: string;
      terminateSession(): Promise<void>;
    };
    try {
      await t.step("tools/list is the bridge over the upstream's catalogue", async () => {
        const { tools } = await client.listTools();
        // The bridge and its read-only discovery tool.
        deepEqual(tools.map((tool) => tool.name), ["mcp", "discover"]);
        ok(tools[0]!.description?.includes("remote/echo"));
      });
      await t.step("search, describe and execute reach the upstream", async () => {
        const found = await bridge(client, { action: "search", query: "echo back" });
        ok(
          (found.structuredContent?.matches as { id: string }[]).some((m) =>
            m.id === "remote/echo"
          ),
        );
        const refused = await bridge(client, {
          action: "execute",
          name: "remote/echo",
          arguments: { message: "from the worker" },
        });
        equal(refused.structuredContent?.code, "describe_first");
        const described = await bridge(client, { action: "describe", name: "remote/get-sum" });
        equal(described.structuredContent?.action, "describe");
        const echoed = await bridge(client, {
          action: "execute",
          name: "remote/echo",
          arguments: { message: "from the worker" },
        });
        equal((echoed.content[0] as { text: string }).text, "Echo: from the worker");
      });
      await t.step("the session lives in its Durable Object", async () => {
        ok(transport.sessionId, "the Worker gave a session id");
        const response = await fetch(`${worker.url}/v1/sessions/${transport.sessionId}`);
        equal(response.status, 200);
        const session = await response.json();
        equal(session.counters.executes, 1);
        equal(session.counters.errors.describe_first, 1);
        equal(session.generation, 1);
      });
      await t.step("a session ended by the client (DELETE) is gone", async () => {
        const id = transport.sessionId;
        await transport.terminateSession();
        const response = await fetch(`${worker.url}/v1/sessions/${id}`);
        equal(response.status, 404);
        await response.body?.cancel();
      });
    } finally {
      await client.close();
    }
    await t.step(
      "the page and its reads: upstream states, the live view, an explanation",
      async () => {
        await assertServesPage(worker.url);
        const answer = await fetch(`${worker.url}/status`);
        // The gateway Worker ranks as every face does, its data from the static assets.
        equal(answer.headers.get("unfold-ranker"), "deno-default");
        const status = await answer.json();
        equal(status.ranker, "deno-default");
        equal(status.face, "gateway");
        equal(status.servers[0].server, "remote");
        equal(status.servers[0].state, "ready");
        ok(status.servers[0].definitionTokens > 0);
        const view = await (await fetch(`${worker.url}/view?context=8000`)).json();
        ok(["manifest", "brief", "names", "inventory"].includes(view.level), JSON.stringify(view));
        const explained = await fetch(`${worker.url}/explain?query=echo+back&id=remote/echo`);
        equal((await explained.json()).target.id, "remote/echo");
      },
    );
    await conformance(t, url);
  } finally {
    await worker.close();
  }
});
