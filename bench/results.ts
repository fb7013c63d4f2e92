/**
 * What one answer costs the model, with and without the result ceiling, and what the cut costs.
 *
 * 1. The tokens reaching the model per call over the three reference servers' real outputs,
 *    captured through unfold's stdio client: server-filesystem reading a 2 MiB log and listing a
 *    large directory tree, server-memory reading a large graph. Per row: the text's tokens and the
 *    structured copy's (hosts show one or the other: Gemini the text, Claude Code and Codex the
 *    structured copy), without a ceiling and with the default one (10,000 tokens at 100,000 of
 *    context), and the calls `more` takes to read the rest.
 * 2. The cost of the cut itself, in µs per MiB of result: the first answer (the layout, one
 *    estimate of the whole, and the first part) and paging through every part, at 1, 4, 16 and
 *    64 MiB (the figure per MiB stays flat: linear).
 *
 * 3. The same 2 MiB log read through the gateway (`unfold gateway` over stdio, the SDK client as
 *    the host), without a ceiling (`maxResultTokens: 0`) and with the default one.
 *
 * Every token figure is the project's estimate, ceil(code points / 4), of what the model reads.
 *
 * Run: `deno run --node-modules-dir=auto -A bench/results.ts`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { resultCeiling } from "../src/bridge/ceiling.ts";
import { resolveConfig } from "../src/config.ts";
import { connectStdio } from "../src/mcp/stdio.ts";
import { answerMore, type Bounded, boundResult } from "../src/session/bound.ts";
import { MemorySessionStore } from "../src/session/memory_store.ts";
import { estimateTokens } from "../src/tokens.ts";
import type { CallToolResultLike } from "../src/tool_result.ts";
import { denoEnv, npmServer } from "../test/mcp/_servers.ts";
import { stdioClient } from "../test/gateway/_gateway.ts";

const ceiling = resultCeiling(resolveConfig({ availableContextTokens: 100_000 }));
const tokens = (value: unknown) =>
  value === undefined
    ? 0
    : estimateTokens(typeof value === "string" ? value : JSON.stringify(value));
const textOf = (result: CallToolResultLike) =>
  (result.content ?? []).map((b) => (b as { text?: string }).text ?? "").join("");

const dir = await Deno.makeTempDir({ prefix: "unfold-results-bench-" });
try {
  // A 2 MiB log, and a tree of 8 × 8 × 40 files.
  const line = (i: number) =>
    `2026-08-31T12:${String(i % 60).padStart(2, "0")}:00Z INFO request ${i} served in ${
      i % 97
    } ms\n`;
  let log = "";
  for (let i = 0; log.length < 2 * 1024 * 1024; i++) log += line(i);
  await Deno.writeTextFile(`${dir}/big.log`, log.slice(0, 2 * 1024 * 1024));
  for (let a = 0; a < 8; a++) {
    for (let b = 0; b < 8; b++) {
      const sub = `${dir}/tree/area-${a}/module-${b}`;
      await Deno.mkdir(sub, { recursive: true });
      for (let c = 0; c < 40; c++) await Deno.writeTextFile(`${sub}/file-${c}.ts`, "");
    }
  }
  const filesystem = await connectStdio({
    server: "filesystem",
    ...npmServer("@modelcontextprotocol/server-filesystem", dir),
    env: denoEnv(),
  });
  const memory = await connectStdio({
    server: "memory",
    ...npmServer("@modelcontextprotocol/server-memory"),
    env: { ...denoEnv(), MEMORY_FILE_PATH: `${dir}/memory.jsonl` },
  });
  try {
    // A graph of 3,000 entities with three observations each and 3,000 relations.
    for (let batch = 0; batch < 6; batch++) {
      await memory.forward("create_entities", {
        entities: Array.from({ length: 500 }, (_, i) => ({
          name: `entity-${batch * 500 + i}`,
          entityType: i % 2 ? "person" : "project",
          observations: [`observed ${i}`, `works on project ${i % 40}`, `since 20${10 + (i % 15)}`],
        })),
      });
      await memory.forward("create_relations", {
        relations: Array.from({ length: 500 }, (_, i) => ({
          from: `entity-${batch * 500 + i}`,
          to: `entity-${(batch * 500 + i + 1) % 3_000}`,
          relationType: "knows",
        })),
      });
    }
    const rows: Array<[string, CallToolResultLike]> = [
      [
        "server-filesystem read_text_file, a 2 MiB log",
        await filesystem.forward("read_text_file", { path: `${dir}/big.log` }),
      ],
      [
        "server-filesystem directory_tree, 2,632 entries",
        await filesystem.forward("directory_tree", { path: `${dir}/tree` }),
      ],
      [
        "server-memory read_graph, 3,000 entities and relations",
        await memory.forward("read_graph", {}),
      ],
    ];
    console.log(
      `Tokens reaching the model per call (text / structured copy); ceiling ${ceiling.maxResultTokens}:\n`,
    );
    console.log(
      "| call | without the ceiling | with the ceiling (first answer) | more calls to read it all | each part, at most |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: |");
    for (const [name, result] of rows) {
      const store = new MemorySessionStore();
      const context = {
        ceiling,
        session: { store, key: { tenant: "", session: "bench" } },
        results: store,
      };
      const first = await boundResult({ shape: "mcp", result }, context);
      const answer = first.answer as CallToolResultLike;
      let calls = 0;
      let largest = 0;
      for (let part: Bounded = first; part.cut?.next !== undefined;) {
        const more = await answerMore(part.cut.next.ref, context);
        if (!more.ok) throw new Error(more.error.message);
        part = more.value;
        const shown = part.answer as CallToolResultLike;
        largest = Math.max(largest, tokens(textOf(shown)), tokens(shown.structuredContent));
        calls++;
      }
      console.log(
        `| ${name} | ${tokens(textOf(result)).toLocaleString("en-US")} / ${
          tokens(result.structuredContent).toLocaleString("en-US")
        } | ${tokens(textOf(answer)).toLocaleString("en-US")} / ${
          tokens(answer.structuredContent).toLocaleString("en-US")
        } | ${calls} | ${largest.toLocaleString("en-US")} |`,
      );
    }
  } finally {
    await filesystem.close();
    await memory.close();
  }
  await gatewayRows(dir);
} finally {
  await Deno.remove(dir, { recursive: true });
}

// The cut's own cost: a log of the given size, as one text block, paged through.
console.log("\nThe cost of the cut (median of 5 runs), µs per MiB of result:\n");
console.log("| result | first answer | every part, paged through |");
console.log("| ---: | ---: | ---: |");
const line = "2026-08-31T12:00:00Z INFO a line of a large log, some words and numbers 0123456789\n";
for (const mib of [1, 4, 16, 64]) {
  const text = line.repeat(Math.ceil((mib * 1024 * 1024) / line.length));
  const result = { content: [{ type: "text", text }] };
  const firsts: number[] = [];
  const pages: number[] = [];
  for (let run = 0; run < 5; run++) {
    const store = new MemorySessionStore({
      maxKeptBytesPerSession: 2 ** 30,
      maxKeptBytes: 2 ** 30,
    });
    const context = {
      ceiling,
      session: { store, key: { tenant: "", session: "s" } },
      results: store,
    };
    let started = performance.now();
    let part: Bounded = await boundResult({ shape: "mcp", result }, context);
    firsts.push(performance.now() - started);
    started = performance.now();
    while (part.cut?.next !== undefined) {
      const more = await answerMore(part.cut.next.ref, context);
      if (!more.ok) throw new Error(more.error.message);
      part = more.value;
    }
    pages.push(performance.now() - started);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[2]!;
  const perMiB = (ms: number) => Math.round((ms * 1000) / mib).toLocaleString("en-US");
  console.log(`| ${mib} MiB | ${perMiB(median(firsts))} | ${perMiB(median(pages))} |`);
}

// The 2 MiB log through the gateway's bridge over stdio, with no ceiling and with the default.
async function gatewayRows(dir: string): Promise<void> {
  console.log("\nThrough the gateway (stdio), the 2 MiB log (text / structured copy):\n");
  console.log(
    "| maxResultTokens | first answer | more calls to read it all | each part, at most |",
  );
  console.log("| ---: | ---: | ---: | ---: |");
  for (const maxResultTokens of [0, undefined]) {
    const path = `${dir}/gateway-${maxResultTokens ?? "default"}.json`;
    const unfold = {
      describeFirst: "off",
      startupTimeoutMs: 30_000,
      ...(maxResultTokens === undefined ? {} : { maxResultTokens }),
    };
    const filesystem = {
      ...npmServer("@modelcontextprotocol/server-filesystem", dir),
      env: denoEnv(),
    };
    await Deno.writeTextFile(path, JSON.stringify({ mcpServers: { filesystem }, unfold }));
    const client = await stdioClient(path);
    try {
      await client.listTools();
      const call = async (args: Record<string, unknown>) =>
        await client.callTool({ name: "mcp", arguments: args }) as CallToolResultLike;
      const first = await call({
        action: "execute",
        name: "filesystem/read_text_file",
        arguments: { path: `${dir}/big.log` },
      });
      let calls = 0;
      let largest = 0;
      const refOf = (r: CallToolResultLike) =>
        (r.structuredContent as { cut?: { next?: { ref: string } } } | undefined)?.cut?.next?.ref;
      for (let ref = refOf(first); ref !== undefined;) {
        const part = await call({ action: "more", ref });
        largest = Math.max(largest, tokens(textOf(part)), tokens(part.structuredContent));
        calls++;
        ref = refOf(part);
      }
      const n = (value: number) => value.toLocaleString("en-US");
      console.log(
        `| ${maxResultTokens ?? `${n(ceiling.maxResultTokens)} (default)`} | ${
          n(tokens(textOf(first)))
        } / ${n(tokens(first.structuredContent))} | ${calls} | ${n(largest)} |`,
      );
    } finally {
      await client.close();
    }
  }
}
