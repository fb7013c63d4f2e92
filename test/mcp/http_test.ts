import { equal, ok, rejects } from "node:assert/strict";
import { connectHttp, type McpError } from "../../src/mcp/mod.ts";
import { everythingContract, rejectsWith } from "../_contracts/everything_contract.ts";
import { freePort, startHttpEverything } from "./_servers.ts";

everythingContract("Streamable HTTP", async () => {
  const everything = await startHttpEverything();
  return {
    connect: () => connectHttp({ server: "everything", url: everything.url }),
    stop: () => everything.stop(),
  };
});

Deno.test("connectHttp() fails with connect when nothing listens on the port", async () => {
  const url = `http://127.0.0.1:${freePort()}/mcp`;
  const error = await rejectsWith(connectHttp({ server: "remote", url }), "connect", 2_000);
  ok(error.message.startsWith('Cannot connect to "remote": '), error.message);
});

Deno.test("connectHttp() fails with connect when the URL is not an MCP endpoint", async () => {
  await using everything = await startHttpEverything();
  const url = everything.url.replace(/\/mcp$/, "/not-mcp");
  await rejectsWith(connectHttp({ server: "remote", url }), "connect", 2_000);
});

Deno.test("an HTTP server that dies mid-call fails the call and every later one at once", async () => {
  const everything = await startHttpEverything();
  const lost: McpError[] = [];
  const remote = await connectHttp({ server: "everything", url: everything.url }, {
    onError: (error) => lost.push(error),
  });
  try {
    const pending = remote.call("trigger-long-running-operation", { duration: 5, steps: 5 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await everything.stop();
    const error = await rejectsWith(pending, "disconnected", 3_000);
    ok(error.message.includes("the server stopped answering"), error.message);
    equal(remote.closed, true);
    await rejectsWith(remote.call("echo", { message: "late" }), "disconnected", 50);
    equal(lost[0]?.code, "disconnected");
  } finally {
    await remote.close();
    await everything.stop();
  }
});

Deno.test("connectHttp() sends the configured headers with every request", async () => {
  const seen: string[] = [];
  await using everything = await startHttpEverything();
  const remote = await connectHttp(
    { server: "everything", url: everything.url, headers: { Authorization: "Bearer t0ken" } },
    {
      fetch: (url, init) => {
        seen.push(new Headers(init?.headers).get("authorization") ?? "(none)");
        return fetch(url, init);
      },
    },
  );
  equal(await remote.call("echo", { message: "hi" }), "Echo: hi");
  await remote.close();
  ok(seen.length >= 3, `${seen.length} requests`);
  ok(seen.every((value) => value === "Bearer t0ken"), seen.join(", "));
});

Deno.test("connectHttp() rejects a bad server name or URL with a TypeError", async () => {
  await rejects(connectHttp({ server: "a/b", url: "http://127.0.0.1:1/mcp" }), TypeError);
  await rejects(connectHttp({ server: "remote", url: "not a url" }), TypeError);
});
