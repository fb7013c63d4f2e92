/**
 * Code mode on the gateway Worker under `wrangler dev` (real workerd): a run's script in a Worker
 * Loader isolate, its calls forwarded to a real HTTP upstream (server-everything) as executes,
 * recorded in the session's Durable Object.
 *
 * @module
 */

import { deepEqual, equal, match, ok } from "node:assert/strict";
import { readOnlyRefusal } from "../../src/code_mode/render.ts";
import { startGatewayWorker } from "../workers/_gateway_worker.ts";
import { startHttpEverything } from "../mcp/_servers.ts";
import { httpClient } from "./_gateway.ts";
import { run } from "./_code_mode.ts";

Deno.test("the gateway Worker runs scripts in a Worker Loader isolate, calling a real HTTP upstream", async () => {
  await using remote = await startHttpEverything();
  const upstreams = JSON.stringify({ mcpServers: { remote: { url: remote.url } } });
  const worker = await startGatewayWorker({ UNFOLD_UPSTREAMS: upstreams });
  try {
    const client = await httpClient(`${worker.url}/mcp`);
    try {
      const { tools } = await client.listTools();
      match(tools[0]!.description ?? "", /run: JavaScript/);

      const summed = await run(
        client,
        `const sum = await call("remote/get-sum", { a: 2, b: 3 });
         const echo = await call("remote/echo", { message: "from a script" });
         console.log("two calls");
         return { sum, echo };`,
      );
      equal(summed.isError, false, summed.text);
      const value = summed.structured.result as { sum: unknown; echo: unknown };
      match(JSON.stringify(value.sum), /5/);
      equal(value.echo, "Echo: from a script");
      deepEqual(summed.structured.logs, ["two calls"]);
      deepEqual(summed.structured.calls, [
        { id: "remote/get-sum", ok: true },
        { id: "remote/echo", ok: true },
      ]);

      // read-only (the default): a tool that is not read-only throws, and is not called.
      const write = await run(
        client,
        `try { await call("remote/toggle-simulated-logging", {}); return "called"; } catch (e) { return e.message; }`,
      );
      equal(write.structured.result, readOnlyRefusal("remote/toggle-simulated-logging"));
      deepEqual(write.structured.calls, []);

      const syntax = await run(client, "return (;");
      equal(syntax.structured.error?.code, "syntax_error");
      equal(syntax.structured.error?.line, 1);

      // The session (a Durable Object) counts the script's calls.
      const id = (client.transport as unknown as { sessionId?: string }).sessionId;
      ok(id, "the Worker gave a session id");
      const response = await fetch(`${worker.url}/v1/sessions/${id}`);
      equal(response.status, 200);
      const session = await response.json();
      equal(session.counters.scriptCalls, 2);
    } finally {
      await client.close();
    }
  } finally {
    await worker.close();
  }
});
