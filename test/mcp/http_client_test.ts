import { equal, ok } from "node:assert/strict";
import { connectHttp, type McpError } from "../../src/mcp/mod.ts";
import { everythingContract, rejectsWith } from "../_contracts/everything_contract.ts";
import { startHttpEverything } from "./_servers.ts";

everythingContract("Streamable HTTP", async () => {
  const everything = await startHttpEverything();
  return {
    connect: () => connectHttp({ server: "everything", url: everything.url }),
    stop: () => everything.stop(),
  };
});

Deno.test("connectHttp() fails with connect when nothing listens on the port", async () => {
  // Port 1 is privileged and outside the ephemeral range, so no server of these tests (they all
  // bind port 0) can be on it; a port freed a moment ago could be taken again.
  const url = "http://127.0.0.1:1/mcp";
  const error = await rejectsWith(connectHttp({ server: "remote", url }), "connect");
  ok(error.message.startsWith('Cannot connect to "remote": '), error.message);
});

Deno.test("connectHttp() fails with connect when the URL is not an MCP endpoint", async () => {
  await using everything = await startHttpEverything();
  const url = everything.url.replace(/\/mcp$/, "/not-mcp");
  await rejectsWith(connectHttp({ server: "remote", url }), "connect");
});

Deno.test("an HTTP server that dies mid-call fails the call and every later one at once", async () => {
  const everything = await startHttpEverything();
  const lost: McpError[] = [];
  // The call is under way once the server has answered its POST with the response stream's headers.
  const callAnswered = Promise.withResolvers<void>();
  const remote = await connectHttp({ server: "everything", url: everything.url }, {
    onError: (error) => lost.push(error),
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      if (String(init?.body ?? "").includes('"tools/call"')) callAnswered.resolve();
      return response;
    },
  });
  try {
    // Handled from the start: the call fails while the server is being stopped, before any await
    // below returns.
    const failed = rejectsWith(
      remote.call("trigger-long-running-operation", { duration: 5, steps: 5 }),
      "disconnected",
    );
    await callAnswered.promise;
    await everything.stop();
    const error = await failed;
    ok(error.message.includes("the server stopped answering"), error.message);
    equal(remote.closed, true);
    const late = await rejectsWith(remote.call("echo", { message: "late" }), "disconnected");
    ok(late.message.includes("the server stopped answering"), late.message);
    equal(lost[0]?.code, "disconnected");
  } finally {
    await remote.close();
    await everything.stop();
  }
});
