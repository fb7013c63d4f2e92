/**
 * The result ceiling at the gateway, over the real server-filesystem: a large file read through
 * the bridge reaches the host within `maxResultTokens` plus the marker, in its text and its
 * structured copy (validated by the SDK client against the bridge's output schema); `more`
 * returns the rest, and the parts joined are the file byte for byte (ASCII and multi-byte
 * text). Over stdio, and over Streamable HTTP, where a ref from another session or another
 * profile is refused as unknown; `/status` counts what was returned, cut and asked for.
 *
 * @module
 */

import { equal, ok } from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { denoEnv, npmServer } from "../mcp/_servers.ts";
import { httpClient, startHttpGateway, stdioClient } from "./_gateway.ts";
import { answerOf, postModern } from "../_mcp_wire.ts";
import {
  assertUnknownRef,
  assertWithin,
  bridge,
  CEILING,
  readAll,
  writeLargeFiles,
} from "./_ceiling.ts";

const TIMING = { restartDelayMs: 600_000, restartMaxDelayMs: 600_000, startupTimeoutMs: 30_000 };

// A config over server-filesystem alone, serving a folder of large files, with two profiles.
async function ceilingConfig() {
  const dir = await Deno.makeTempDir({ prefix: "unfold-ceiling-" });
  const files = await writeLargeFiles(dir);
  const path = `${dir}/mcp.json`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      mcpServers: {
        filesystem: {
          ...npmServer("@modelcontextprotocol/server-filesystem", dir),
          env: denoEnv(),
        },
      },
      unfold: {
        ...TIMING,
        maxResultTokens: CEILING,
        maxResultBytes: 2_048,
        describeFirst: "off",
        pinned: ["filesystem/read_text_file"],
        profiles: { a: {}, b: {} },
      },
    }),
  );
  return { dir, path, files };
}

// Reads both files through the client, checking the parts join to the files byte for byte.
async function readsWhole(
  client: Client,
  dir: string,
  files: { ascii: string; multi: string },
): Promise<string> {
  // The SDK client validates each structuredContent against the bridge's output schema.
  const { tools } = await client.listTools();
  ok(/Answers over 2,000 tokens are cut/.test(tools[0]!.description ?? ""));
  let ref = "";
  for (const [name, original] of Object.entries(files)) {
    const read = await readAll(client, `${dir}/${name}.txt`);
    equal(read.text.length, original.length);
    ok(read.text === original, `${name}: the parts joined are the file`);
    const copy = JSON.parse(read.json) as { result?: { content?: string }; text?: string };
    equal(copy.result?.content ?? copy.text, original);
    ok(read.parts > 10, `${name}: ${read.parts} parts`);
    ref = read.firstRef;
  }
  return ref;
}

Deno.test("over stdio a large file read through the gateway comes within the ceiling, more returns the rest exactly", async () => {
  const { dir, path, files } = await ceilingConfig();
  const client = await stdioClient(path);
  try {
    await readsWhole(client, dir, files);
    // A describe and a search are bounded too (small here: whole), and a made-up ref is unknown.
    const described = await bridge(client, {
      action: "describe",
      name: "filesystem/read_text_file",
    });
    assertWithin(described);
    equal((described.structuredContent as { action: string }).action, "describe");
    await assertUnknownRef(client, "aaaaaaaaaaaa.2");
    // An image over maxResultBytes is a line naming it; one within passes as itself.
    const media = async (file: string) =>
      await client.callTool({
        name: "mcp",
        arguments: {
          action: "execute",
          name: "filesystem/read_media_file",
          arguments: { path: `${dir}/${file}` },
        },
      }) as { content: { type: string; text?: string; data?: string }[] };
    const big = await media("big.png");
    ok(big.content.every((b) => b.type === "text"), JSON.stringify(big).slice(0, 300));
    ok(
      /\[image .*not shown: over the 2\.0 KiB/.test(big.content[0]!.text ?? ""),
      big.content[0]!.text,
    );
    const small = await media("small.png");
    equal(small.content[0]!.type, "image");
    // A pinned tool exposed directly is bounded too, its rest read with more through the bridge.
    const pinned = await client.callTool({
      name: "filesystem__read_text_file",
      arguments: { path: `${dir}/ascii.txt` },
    }) as Record<string, unknown>;
    assertWithin(pinned);
    const marker = (pinned.content as { text: string }[]).at(-1)!.text;
    const ref = /"ref":"([^"]+)"/.exec(marker)?.[1];
    ok(ref !== undefined, marker);
    const next = await bridge(client, { action: "more", ref });
    assertWithin(next);
    equal(next.isError, undefined);
  } finally {
    await client.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("over HTTP refs are kept per session and per profile, and /status counts the answers", async () => {
  const { dir, path, files } = await ceilingConfig();
  await using gateway = await startHttpGateway(path);
  const base = gateway.url; // …/mcp
  const one = await httpClient(`${base}/a`);
  const other = await httpClient(`${base}/a`);
  const profile = await httpClient(`${base}/b`);
  const wide = await httpClient(base);
  try {
    const ref = await readsWhole(one, dir, files);
    // The ref names a part the first session read already: it is still its to read again.
    const again = await bridge(one, { action: "more", ref });
    equal(again.isError, undefined);
    for (const client of [other, profile, wide]) await assertUnknownRef(client, ref);
    // The discovery tool reads parts too (more is read-only).
    const looked = await bridge(one, { action: "more", ref }, "discover");
    equal(looked.isError, undefined, JSON.stringify(looked).slice(0, 300));
    // A 2026-07-28 stateless request has no session: cut, and the marker says nothing is kept.
    const stateless = await answerOf(
      await postModern(base, "tools/call", {
        name: "mcp",
        arguments: {
          action: "execute",
          name: "filesystem/read_text_file",
          arguments: { path: `${dir}/ascii.txt` },
        },
      }, "mcp"),
    ) as { result: Record<string, unknown> };
    assertWithin(stateless.result);
    const marker = (stateless.result.content as { text: string }[]).at(-1)!.text;
    ok(/The rest is not kept without a session/.test(marker), marker);
    const status = await (await fetch(`${new URL(base).origin}/status`)).json();
    const c = status.counters as { resultsCut: number; moreCalls: number; tokensReturned: number };
    ok(c.resultsCut >= 2, JSON.stringify(c));
    ok(c.moreCalls > 20, JSON.stringify(c));
    ok(c.tokensReturned > 40 * CEILING, JSON.stringify(c));
  } finally {
    for (const client of [one, other, profile, wide]) await client.close();
    await gateway.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
