import { deepEqual, equal, match, ok } from "node:assert/strict";
import { startHttpGateway, writeConfig } from "./_gateway.ts";
import { answerOf, initializeBody, MCP_POST_HEADERS, MODERN, postModern } from "../_mcp_wire.ts";

// A 2026-07-28 request, answered with status 200.
async function modern(url: string, method: string, params: Record<string, unknown>, name?: string) {
  const response = await postModern(url, method, params, name);
  equal(response.status, 200);
  // Read as JSON.parse reads: each step checks the members it needs.
  const answer: ReturnType<typeof JSON.parse> = await answerOf(response);
  return answer;
}

Deno.test("the gateway negotiates every protocol version and serves 2026-07-28 stateless requests", async (t) => {
  const { path, dir } = await writeConfig();
  await using gateway = await startHttpGateway(path);
  try {
    await t.step("initialize answers each 2025-era version with that version", async () => {
      for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
        const response = await fetch(gateway.url, {
          method: "POST",
          headers: MCP_POST_HEADERS,
          body: initializeBody(version, "protocol-test"),
        });
        const text = await response.text();
        const data = text.split("\n").filter((l) => l.startsWith("data: ")).at(-1) ?? text;
        const result = JSON.parse(data.replace(/^data: /, "")).result;
        equal(result.protocolVersion, version);
        equal(result.serverInfo.name, "unfold");
        // The overview is in the bridge description (overviewIn); the instructions name the protocol.
        match(result.instructions, /describe: get a tool's input schema/);
      }
    });

    await t.step("server/discover advertises 2026-07-28, tools/list the overview", async () => {
      const { result } = await modern(gateway.url, "server/discover", {});
      deepEqual(result.supportedVersions, [MODERN]);
      match(result.instructions, /describe: get a tool's input schema/);
      const listed = await modern(gateway.url, "tools/list", {});
      match(listed.result.tools[0].description, /everything\/echo/);
    });

    await t.step("a stateless execute runs without describe and checks the arguments", async () => {
      const call = (args: Record<string, unknown>) =>
        modern(gateway.url, "tools/call", { name: "mcp", arguments: args }, "mcp");
      const echoed = await call({
        action: "execute",
        name: "everything/echo",
        arguments: { message: "stateless" },
      });
      equal(echoed.result.content[0].text, "Echo: stateless");
      const wrong = await call({ action: "execute", name: "everything/echo", arguments: {} });
      equal(wrong.result.isError, true);
      equal(wrong.result.structuredContent.code, "invalid_arguments");
      match(wrong.result.content[0].text, /Input schema: \{/);
    });

    await t.step(
      "a stateless describe is never elided: there is no session to remember it",
      async () => {
        for (let i = 0; i < 2; i++) {
          const { result } = await modern(gateway.url, "tools/call", {
            name: "mcp",
            arguments: { action: "describe", name: "everything/echo" },
          }, "mcp");
          equal(result.structuredContent.elided, false);
        }
      },
    );

    await t.step("a name that is no tool of the gateway is a JSON-RPC error", async () => {
      const answer = await modern(
        gateway.url,
        "tools/call",
        { name: "echo", arguments: {} },
        "echo",
      );
      ok(answer.error, JSON.stringify(answer));
      match(answer.error.message, /There is no tool "echo" on this gateway/);
    });
  } finally {
    await gateway.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
