/**
 * A 2026-07-28 host learns that the gateway's tools changed through `subscriptions/listen`, on
 * stdio as on HTTP: an upstream drops a tool (`lose-tool`), the bridge's overview changes, and
 * the subscription receives `notifications/tools/list_changed` stamped with its id (that era has
 * no `notifications/initialized`, after which a 2025-era connection is told).
 */

import { deepEqual, ok } from "node:assert/strict";
import { fake, RawGateway, writeChaosConfig } from "./_chaos.ts";
import { startHttpGateway } from "../_gateway.ts";
import { answerOf, MODERN_ENVELOPE, postModern } from "../../_mcp_wire.ts";

const META = { _meta: MODERN_ENVELOPE };
const LISTEN = { notifications: { toolsListChanged: true } };
const changed = (id: unknown) => ({
  jsonrpc: "2.0",
  method: "notifications/tools/list_changed",
  params: { _meta: { "io.modelcontextprotocol/subscriptionId": id } },
});
const bridge = (action: string) => ({
  name: "mcp",
  arguments: { action, name: "lose/drop" },
  ...META,
});

Deno.test("stdio: a 2026-07-28 subscription receives the gateway's tool list changes", async () => {
  const { path, dir } = await writeChaosConfig({ lose: fake("lose-tool") });
  try {
    await using gateway = new RawGateway(path);
    const description = async () => {
      const answer = await gateway.request("tools/list", META);
      const tools = (answer.result as { tools: { name: string; description: string }[] }).tools;
      return tools.find((tool) => tool.name === "mcp")?.description ?? "";
    };
    await gateway.until(async () => (await description()).includes("lose/echo"), "the listing");
    await gateway.write(
      `${
        JSON.stringify({
          jsonrpc: "2.0",
          id: "sub",
          method: "subscriptions/listen",
          params: { ...LISTEN, ...META },
        })
      }\n`,
    );
    await gateway.until(() => gateway.notifications.length > 0, "the acknowledgement");
    await gateway.request("tools/call", bridge("describe"));
    await gateway.request("tools/call", bridge("execute"));
    const seen = () =>
      gateway.notifications.filter((note) => note.method === "notifications/tools/list_changed");
    await gateway.until(() => seen().length > 0, "list_changed on the subscription");
    deepEqual(seen()[0], changed("sub"));
    ok(!(await description()).includes("lose/echo"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("HTTP: a 2026-07-28 subscription receives the gateway's tool list changes", async () => {
  const { path, dir } = await writeChaosConfig({ lose: fake("lose-tool") });
  await using gateway = await startHttpGateway(path);
  try {
    const listed = async () =>
      JSON.stringify(await answerOf(await postModern(gateway.url, "tools/list")));
    // The server's state line, then a tools/list (answered once the gateway has taken it in).
    await gateway.log.line(/lose: ready/);
    ok((await listed()).includes("lose/echo"));
    const stream = await postModern(gateway.url, "subscriptions/listen", LISTEN);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const messages: Record<string, unknown>[] = [];
    let buffered = "";
    // Reads the stream's data lines until one is the method's (bounded by the caller's timer).
    const next = async (method: string) => {
      while (!messages.some((message) => message.method === method)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${method}`);
        buffered += value;
        const lines = buffered.split("\n");
        buffered = lines.pop()!;
        for (const line of lines) {
          if (line.startsWith("data: ")) messages.push(JSON.parse(line.slice(6)));
        }
      }
      return messages.find((message) => message.method === method)!;
    };
    // An upper bound on reading the stream, which ends on the two messages.
    const timer = setTimeout(() => void reader.cancel(), 20_000);
    try {
      await next("notifications/subscriptions/acknowledged");
      await answerOf(await postModern(gateway.url, "tools/call", bridge("execute"), "mcp"));
      deepEqual(await next("notifications/tools/list_changed"), changed(1));
    } finally {
      clearTimeout(timer);
      await reader.cancel();
    }
  } finally {
    await gateway.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
