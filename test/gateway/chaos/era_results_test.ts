/**
 * An upstream result one protocol era may carry and the other may not (`structuredContent` an
 * array: the 2026-07-28 schema takes any value, the 2025 era's only an object) reaches each face
 * in each era as that era can carry it: as it is, or as a tool error saying the result was
 * malformed, never as a JSON-RPC error (the SDK's server answers -32602 for a result its schema
 * refuses).
 */

import { deepEqual, equal, match, ok } from "node:assert/strict";
import { fake, FAST, RawGateway, writeChaosConfig } from "./_chaos.ts";
import { startHttpGateway } from "../_gateway.ts";
import {
  answerOf,
  initializeBody,
  MCP_POST_HEADERS,
  MODERN_ENVELOPE,
  postModern,
} from "../../_mcp_wire.ts";

type Message = Record<string, unknown>;
const PINNED = "arr__list";
const REFUSED = /malformed result for this client's 2025-era MCP version/;

// The pinned tool answers its array as a tool error (2025 era) or as it is (2026-07-28); through
// the bridge it is wrapped in the bridge's object and reaches either era.
function assertLegacy(pinned: Message, bridged: Message) {
  ok(pinned.result, JSON.stringify(pinned));
  const result = pinned.result as { isError?: boolean; content: { text: string }[] };
  equal(result.isError, true);
  match(result.content[0]!.text, REFUSED);
  match(result.content[0]!.text, /"arr"/);
  deepEqual((bridged.result as Message).structuredContent, {
    action: "execute",
    id: "arr/list",
    result: [1, 2],
    untrusted: ["result"],
  });
}

function assertModern(pinned: Message) {
  ok(pinned.result, JSON.stringify(pinned));
  const result = pinned.result as Message;
  equal(result.isError, undefined);
  deepEqual(result.structuredContent, [1, 2]);
}

const config = () =>
  writeChaosConfig({ arr: fake("array-structured") }, { ...FAST, pinned: ["arr/list"] });
const bridge = (args: Message) => ({ name: "mcp", arguments: args });

Deno.test("stdio: an array structuredContent is a tool error in the 2025 era, a result in 2026", async () => {
  const { path, dir } = await config();
  try {
    {
      await using gateway = new RawGateway(path);
      await gateway.initialize();
      await gateway.until(async () => (await gateway.overview()) !== "", "the listing");
      await gateway.until(
        async () => JSON.stringify(await gateway.request("tools/list")).includes(PINNED),
        "the pinned tool",
      );
      const pinned = await gateway.request("tools/call", { name: PINNED });
      await gateway.request(
        "tools/call",
        bridge({ action: "describe", name: "arr/list" }),
      );
      const bridged = await gateway.request(
        "tools/call",
        bridge({ action: "execute", name: "arr/list" }),
      );
      assertLegacy(pinned, bridged);
    }
    {
      await using gateway = new RawGateway(path);
      const meta = { _meta: MODERN_ENVELOPE };
      await gateway.until(
        async () => JSON.stringify(await gateway.request("tools/list", meta)).includes(PINNED),
        "the pinned tool",
      );
      assertModern(await gateway.request("tools/call", { name: PINNED, ...meta }));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("HTTP: an array structuredContent is a tool error in the 2025 era, a result in 2026", async () => {
  const { path, dir } = await config();
  await using gateway = await startHttpGateway(path);
  try {
    const opened = await fetch(gateway.url, {
      method: "POST",
      headers: MCP_POST_HEADERS,
      body: initializeBody("2025-06-18", "era-test"),
    });
    await opened.body?.cancel();
    const session = opened.headers.get("mcp-session-id")!;
    let id = 1;
    const post = async (method: string, params: Message) =>
      await answerOf(
        await fetch(gateway.url, {
          method: "POST",
          headers: { ...MCP_POST_HEADERS, "mcp-session-id": session },
          body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
        }),
      );
    const listed = async () =>
      JSON.stringify(await answerOf(await postModern(gateway.url, "tools/list")));
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 150 && !(await check()); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await until(async () => (await listed()).includes(PINNED));
    const pinned = await post("tools/call", { name: PINNED });
    await post("tools/call", bridge({ action: "describe", name: "arr/list" }));
    assertLegacy(pinned, await post("tools/call", bridge({ action: "execute", name: "arr/list" })));
    assertModern(
      await answerOf(await postModern(gateway.url, "tools/call", { name: PINNED }, PINNED)),
    );
  } finally {
    await gateway.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
