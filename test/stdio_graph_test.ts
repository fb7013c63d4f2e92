/**
 * Neither stdio side loads the MCP SDK: the static module graph (what `deno info` lists, dynamic
 * and type-only imports aside) of the stdio client reaches no `@modelcontextprotocol/client`, and
 * that of the gateway's stdio face no `@modelcontextprotocol/server` (their schemas cost a process
 * 21–27 MiB). Each walk is checked to find the SDK where it is loaded. Spawns `deno info`.
 */

import { deepEqual, ok } from "node:assert/strict";
import { staticReach } from "./_graph.ts";

const SDK = "@modelcontextprotocol/";

Deno.test("the static module graph of src/mcp/stdio.ts reaches no MCP SDK package", async () => {
  const { npm, files } = await staticReach("src/mcp/stdio.ts");
  deepEqual([...npm].filter((name) => name.startsWith(SDK)), []);
  // The walk saw the connection, its peer and the shared reader: the graph is the one that runs.
  for (
    const file of ["src/mcp/_connection.ts", "src/mcp/_lite_peer.ts", "src/protocol/jsonrpc.ts"]
  ) {
    ok([...files].some((url) => url.endsWith(file)), `${file} is not in the graph`);
  }
});

Deno.test("the static module graph of src/mcp/client.ts does reach the SDK client (the walk finds it)", async () => {
  const { npm } = await staticReach("src/mcp/client.ts");
  ok(npm.has(`${SDK}client`), [...npm].join(", "));
});

// What `unfold gateway` loads to serve stdio: the wire, the face, the gateway and its host.
for (
  const path of [
    "src/gateway/faces/stdio.ts",
    "src/gateway/faces/stdio_wire.ts",
    "src/gateway/gateway.ts",
    "src/gateway/faces/host.ts",
  ]
) {
  Deno.test(`the static module graph of ${path} reaches no MCP SDK server package`, async () => {
    // The package itself, not its namesakes (`server-everything`).
    const { npm } = await staticReach(path);
    deepEqual(npm.has(`${SDK}server`), false, [...npm].join(", "));
  });
}

Deno.test("the static module graph of src/gateway/faces/http.ts does reach the SDK server (the walk finds it)", async () => {
  const { npm } = await staticReach("src/gateway/faces/http.ts");
  ok(npm.has(`${SDK}server`), [...npm].join(", "));
});
