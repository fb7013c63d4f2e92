/**
 * The session every gateway face passes with the SDK client: listing, search, describe, execute
 * (text, sums, images, structured content), describe-first, progress, cancellation reaching the
 * upstream, upstream tool changes (a new generation and the gateway's own list_changed), and an
 * upstream that dies while the others keep answering.
 *
 * @module
 */

import type { Client } from "@modelcontextprotocol/client";
import { deepEqual, equal, match, ok } from "node:assert/strict";

type Result = {
  content: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** Calls the bridge. */
export async function bridge(
  client: Client,
  args: Record<string, unknown>,
  options: Parameters<Client["callTool"]>[1] = {},
): Promise<Result> {
  return await client.callTool({ name: "mcp", arguments: args }, options) as Result;
}

// Describe-first: a tool is described before it runs, as the model is asked to.
async function describeThenExecute(
  client: Client,
  name: string,
  args?: Record<string, unknown>,
): Promise<Result> {
  await bridge(client, { action: "describe", name });
  return await bridge(client, {
    action: "execute",
    name,
    ...(args === undefined ? {} : { arguments: args }),
  });
}

function textOf(result: Result): string {
  return result.content.filter((b) => b.type === "text").map((b) => b.text).join("\n");
}

/**
 * Runs the scenario.
 *
 * @param t The test context.
 * @param client A client connected to a gateway over everything, filesystem, memory, lab and
 * remote, with `memory/read_graph` pinned.
 * @param remote Whether the remote (HTTP) upstream is configured.
 */
export async function gatewayScenario(
  t: Deno.TestContext,
  client: Client,
  remote: boolean,
): Promise<void> {
  await t.step("tools/list is the bridge, always loaded, plus the pinned tool", async () => {
    const { tools } = await client.listTools();
    deepEqual(tools.map((tool) => tool.name), ["mcp", "discover", "memory__read_graph"]);
    const mcp = tools[0]!;
    equal(mcp._meta?.["anthropic/alwaysLoad"], true);
    match(mcp.description ?? "", /everything\/echo/);
    ok(mcp.outputSchema, "the bridge declares an output schema");
    equal(tools[1]!._meta?.["unfold/id"], "memory/read_graph");
    // The overview reaches the host once: in the bridge description, not again in the instructions.
    match(mcp.description ?? "", /<tool-catalogue level="manifest"/);
    ok(!(client.getInstructions() ?? "").includes("<tool-catalogue"), client.getInstructions());
  });

  await t.step("a pinned tool executes through the bridge without a describe", async () => {
    const graph = await bridge(client, { action: "execute", name: "memory/read_graph" });
    equal(graph.isError, undefined, textOf(graph));
    match(textOf(graph), /entities/);
  });

  await t.step("search finds tools by words, with structured matches", async () => {
    const found = await bridge(client, { action: "search", query: "add two numbers" });
    equal(found.isError, undefined);
    equal(found.structuredContent?.action, "search");
    const ids = (found.structuredContent?.matches as { id: string }[]).map((m) => m.id);
    ok(ids.includes("everything/get-sum"), ids.join(", "));
    match(textOf(found), /everything\/get-sum/);
  });

  await t.step("execute before describe answers with the schema, then runs", async () => {
    const refused = await bridge(client, {
      action: "execute",
      name: "everything/echo",
      arguments: { message: "hi" },
    });
    equal(refused.isError, true);
    equal(refused.structuredContent?.code, "describe_first");
    match(textOf(refused), /Input schema: \{.*"message"/);
    const echoed = await bridge(client, {
      action: "execute",
      name: "everything/echo",
      arguments: { message: "hi" },
    });
    equal(echoed.isError, undefined);
    equal(textOf(echoed), "Echo: hi");
    deepEqual(echoed.structuredContent, { action: "execute", id: "everything/echo" });
  });

  await t.step("describe gives the schema; execute get-sum adds", async () => {
    const described = await bridge(client, { action: "describe", name: "everything/get-sum" });
    equal(described.structuredContent?.action, "describe");
    const tool = described.structuredContent?.tool as { inputSchema: { properties: object } };
    ok("a" in tool.inputSchema.properties && "b" in tool.inputSchema.properties);
    const sum = await bridge(client, {
      action: "execute",
      name: "everything/get-sum",
      arguments: { a: 2, b: 3 },
    });
    match(textOf(sum), /\b5\b/);
  });

  await t.step("an image comes back as an intact image block", async () => {
    const image = await describeThenExecute(client, "everything/get-tiny-image");
    const block = image.content.find((b) => b.type === "image");
    ok(block, JSON.stringify(image.content).slice(0, 200));
    equal(block.mimeType, "image/png");
    ok(typeof block.data === "string" && (block.data as string).startsWith("iVBORw0KGgo"));
  });

  await t.step("structured content is kept", async () => {
    const described = await bridge(client, {
      action: "describe",
      name: "everything/get-structured-content",
    });
    const schema = (described.structuredContent?.tool as { inputSchema: Record<string, unknown> })
      .inputSchema;
    const location = ((schema.properties as Record<string, { enum?: string[] }>).location?.enum ??
      ["New York"])[0];
    const weather = await bridge(client, {
      action: "execute",
      name: "everything/get-structured-content",
      arguments: { location },
    });
    const result = weather.structuredContent?.result as Record<string, unknown> | undefined;
    ok(result && typeof result.temperature === "number", JSON.stringify(weather));
  });

  await t.step("a pinned tool is called directly", async () => {
    const graph = await client.callTool({ name: "memory__read_graph", arguments: {} }) as Result;
    equal(graph.isError, undefined);
    match(textOf(graph), /entities/);
  });

  if (remote) {
    await t.step("a Streamable HTTP upstream answers through the bridge", async () => {
      const echoed = await describeThenExecute(client, "remote/echo", { message: "over http" });
      equal(textOf(echoed), "Echo: over http");
    });
  }

  await t.step("progress notifications flow back from the upstream", async () => {
    await bridge(client, { action: "describe", name: "everything/trigger-long-running-operation" });
    // Read from our own handler: the SDK client's onprogress drops a progress notification that
    // arrives in the same read as the result (its handler is gone by the time it runs).
    const progress: number[] = [];
    client.setNotificationHandler("notifications/progress", (n) => {
      progress.push(n.params.progress);
    });
    const done = await bridge(client, {
      action: "execute",
      name: "everything/trigger-long-running-operation",
      arguments: { duration: 0.3, steps: 3 },
    }, { onprogress: () => {} });
    match(textOf(done), /Long running operation completed/);
    deepEqual(progress, [1, 2, 3]);
  });

  await t.step("a call cancelled by the client is cancelled upstream", async () => {
    await bridge(client, { action: "describe", name: "lab/wait" });
    const controller = new AbortController();
    const started = Promise.withResolvers<void>();
    client.setNotificationHandler("notifications/progress", () => started.resolve());
    const call = bridge(client, { action: "execute", name: "lab/wait" }, {
      signal: controller.signal,
      onprogress: () => {},
    }).catch((error: Error) => error);
    await started.promise;
    controller.abort("the user pressed stop");
    ok((await call) instanceof Error);
    const seen = await describeThenExecute(client, "lab/cancelled");
    match(textOf(seen), /^seen: /);
  });

  await t.step(
    "an upstream that adds a tool starts a new generation and list_changed",
    async () => {
      const changed = Promise.withResolvers<void>();
      client.setNotificationHandler("notifications/tools/list_changed", () => changed.resolve());
      await bridge(client, { action: "describe", name: "lab/grow" });
      const again = await bridge(client, { action: "describe", name: "lab/grow" });
      equal(again.structuredContent?.elided, true);
      await bridge(client, { action: "execute", name: "lab/grow" });
      await changed.promise;
      const { tools } = await client.listTools();
      match(tools[0]!.description ?? "", /lab\/grown-1/);
      const fresh = await bridge(client, { action: "describe", name: "lab/grow" });
      equal(fresh.structuredContent?.elided, false, "a new generation forgets what was sent");
      const found = await bridge(client, { action: "search", query: "grown tool number" });
      ok(
        (found.structuredContent?.matches as { id: string }[]).some((m) => m.id === "lab/grown-1"),
      );
    },
  );

  await t.step("an upstream that dies fails by name while the others answer", async () => {
    await describeThenExecute(client, "lab/exit");
    // wait never answers by itself: the server's exit ends it.
    const dead = await describeThenExecute(client, "lab/wait");
    equal(dead.isError, true);
    match(textOf(dead), /^Error disconnected: the tool lab\/wait failed: /);
    const after = await bridge(client, { action: "execute", name: "lab/wait" });
    equal(after.isError, true);
    match(textOf(after), /the server "lab" is unavailable \(Lost the connection to "lab"/);
    const { tools } = await client.listTools();
    match(
      tools[0]!.description ?? "",
      /Unavailable servers, whose tools cannot be called now: lab \(lost/,
    );
    const echoed = await describeThenExecute(client, "everything/echo", {
      message: "still here",
    });
    equal(textOf(echoed), "Echo: still here");
    const graph = await client.callTool({ name: "memory__read_graph", arguments: {} }) as Result;
    equal(graph.isError, undefined);
  });
}
