/**
 * What the result-ceiling tests of every gateway face share: a folder of large files for the real
 * server-filesystem, and a reader that asks for a file through the bridge, checks each part is
 * within the ceiling plus its marker (text and structured copy), and follows `more` to the end.
 *
 * @module
 */

import { equal, ok } from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { estimateTokens } from "../../src/tokens.ts";

/** The ceiling the tests configure. */
export const CEILING = 2_000;
// What a marker, and the structured copy's wrapper around its piece, may add to a part.
const MARKER_TOKENS = 120;

/** Writes the large files: 300 KiB of ASCII lines and 200 KiB of multi-byte text. */
export async function writeLargeFiles(dir: string): Promise<{ ascii: string; multi: string }> {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < 300 * 1024; i++) {
    lines.push(`line ${i}: ${"abcdefghij".repeat(1 + (i % 7))} "quoted" \\ back\tslash`);
  }
  const ascii = lines.join("\n") + "\n";
  // Two-, three- and four-byte characters, surrogate pairs, escapes: every cut must fall clean.
  const unit = 'été 東京 😀👍🏽 naïve — "q" \\ \u00e9\u0301 𝔘𝔫𝔦𝔠𝔬𝔡𝔢\n';
  const multi = unit.repeat(Math.ceil((200 * 1024) / new TextEncoder().encode(unit).length));
  await Deno.writeTextFile(`${dir}/ascii.txt`, ascii);
  await Deno.writeTextFile(`${dir}/multi.txt`, multi);
  // Images for maxResultBytes (2 KiB in the tests): one over it, one within.
  await Deno.writeFile(`${dir}/big.png`, new Uint8Array(3 * 1024).fill(7));
  await Deno.writeFile(`${dir}/small.png`, new Uint8Array(512).fill(7));
  return { ascii, multi };
}

/** One part's text (its marker left out) and the structured copy's piece. */
interface Part {
  text: string;
  json?: string;
  structured: Record<string, unknown>;
  next?: string;
  isError: boolean;
}

const MARKER = /^\[(Cut by unfold|Part \d+)/;

// Reads a result as a part: its text blocks but the marker, its structured copy, the next ref.
function partOf(result: Record<string, unknown>): Part {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  const texts = content.filter((b) => b.type === "text").map((b) => b.text ?? "");
  const marker = texts.length > 0 && MARKER.test(texts.at(-1)!) ? texts.at(-1)! : undefined;
  const body = marker === undefined ? texts : texts.slice(0, -1);
  const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
  const cut = structured.cut as { next?: { ref: string } } | undefined;
  const fromMarker = marker === undefined ? undefined : /"ref":"([^"]+)"/.exec(marker)?.[1];
  const next = cut?.next?.ref ?? fromMarker;
  return {
    text: body.join(""),
    ...(typeof structured.json === "string" ? { json: structured.json } : {}),
    structured,
    ...(next === undefined ? {} : { next }),
    isError: result.isError === true,
  };
}

/** Asserts a part is within the ceiling plus its marker, in its text and its structured copy. */
export function assertWithin(result: Record<string, unknown>, ceiling = CEILING): void {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  const text = content.map((b) => b.text ?? "").join("\n");
  const tokens = estimateTokens(text);
  ok(tokens <= ceiling + MARKER_TOKENS, `the text takes ${tokens} tokens`);
  const copy = estimateTokens(JSON.stringify(result.structuredContent ?? {}));
  ok(copy <= ceiling + MARKER_TOKENS, `the structured copy takes ${copy} tokens`);
}

/** Calls the bridge. */
export async function bridge(
  client: Client,
  args: Record<string, unknown>,
  name = "mcp",
): Promise<Record<string, unknown>> {
  return await client.callTool({ name, arguments: args }) as Record<string, unknown>;
}

/**
 * Reads a file through the bridge and every part after it with `more`.
 *
 * @returns The text joined, the structured copy's JSON joined, the first ref, the parts.
 */
export async function readAll(
  client: Client,
  path: string,
): Promise<{ text: string; json: string; firstRef: string; parts: number }> {
  const first = await bridge(client, {
    action: "execute",
    name: "filesystem/read_text_file",
    arguments: { path },
  });
  assertWithin(first);
  let part = partOf(first);
  equal(part.isError, false, part.text);
  equal(part.structured.action, "execute");
  ok(part.next !== undefined, "a 200 KiB file is cut at 2,000 tokens");
  const firstRef = part.next!;
  let text = part.text;
  let json = part.json ?? "";
  let parts = 1;
  while (part.next !== undefined) {
    const more = await bridge(client, { action: "more", ref: part.next });
    assertWithin(more);
    part = partOf(more);
    equal(part.isError, false, part.text);
    equal(part.structured.action, "more");
    text += part.text;
    json += part.json ?? "";
    parts++;
    ok(parts < 1_000, "more ends");
  }
  return { text, json, firstRef, parts };
}

/** Asserts a `more` of a ref is refused as unknown, saying how to get the data again. */
export async function assertUnknownRef(client: Client, ref: string, name = "mcp"): Promise<void> {
  const refused = await bridge(client, { action: "more", ref }, name);
  equal(refused.isError, true);
  const structured = refused.structuredContent as Record<string, unknown>;
  equal(structured.code, "unknown_ref");
  ok(
    /Run the call that gave it again/.test(String(structured.message)),
    String(structured.message),
  );
}
