/**
 * The result ceiling on the gateway Worker (wrangler dev, sessions and their kept parts in
 * Durable Objects), over the real server-everything on Streamable HTTP: a long echo comes within
 * `maxResultTokens` plus the marker, `more` returns the rest from the session's Durable Object
 * and the parts joined are the echo exactly (multi-byte text); another session's ref is unknown.
 *
 * @module
 */

import { equal, ok } from "node:assert/strict";
import { startGatewayWorker } from "../workers/_gateway_worker.ts";
import { startHttpEverything } from "../mcp/_servers.ts";
import { httpClient } from "./_gateway.ts";
import { assertUnknownRef, assertWithin, bridge } from "./_ceiling.ts";

const CEILING = 1_000;
const MARKER = /^\[(Cut by unfold|Part \d+)/;

Deno.test("the Worker's gateway cuts a long result at maxResultTokens and more returns the rest from the Durable Object", async () => {
  await using remote = await startHttpEverything();
  const upstreams = JSON.stringify({
    mcpServers: { remote: { url: remote.url } },
    unfold: { maxResultTokens: CEILING, describeFirst: "off" },
  });
  const worker = await startGatewayWorker({ UNFOLD_UPSTREAMS: upstreams });
  const client = await httpClient(`${worker.url}/mcp`);
  const other = await httpClient(`${worker.url}/mcp`);
  try {
    await client.listTools(); // the SDK client validates structured content from here on
    const message = 'été 東京 😀 "q" \\ line\n'.repeat(1_500);
    const first = await bridge(client, {
      action: "execute",
      name: "remote/echo",
      arguments: { message },
    });
    assertWithin(first, CEILING);
    let text = "";
    let result = first;
    let parts = 0;
    for (;;) {
      const blocks = (result.content as { type: string; text: string }[]).map((b) => b.text);
      const marker = blocks.at(-1)!;
      ok(MARKER.test(marker), marker.slice(0, 200));
      text += blocks.slice(0, -1).join("");
      parts++;
      const ref = /"ref":"([^"]+)"/.exec(marker)?.[1] ??
        (result.structuredContent as { cut?: { next?: { ref: string } } }).cut?.next?.ref;
      if (ref === undefined) break;
      if (parts === 1) await assertUnknownRef(other, ref);
      result = await bridge(client, { action: "more", ref });
      assertWithin(result, CEILING);
      equal((result.structuredContent as { action: string }).action, "more");
      ok(parts < 500);
    }
    ok(parts > 5, `${parts} parts`);
    ok(text === `Echo: ${message}`, "the parts joined are the echo");
    // The session's Durable Object counted them: one cut, a more for each part after the first.
    const id = (client.transport as unknown as { sessionId: string }).sessionId;
    const session = await (await fetch(`${worker.url}/v1/sessions/${id}`)).json();
    equal(session.counters.resultsCut, 1);
    equal(session.counters.moreCalls, parts - 1);
    ok(session.counters.tokensReturned > (parts - 1) * (CEILING / 2), JSON.stringify(session));
  } finally {
    await client.close();
    await other.close();
    await worker.close();
  }
});
