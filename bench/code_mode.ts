/**
 * Code mode's mechanics on the reference servers (server-filesystem, server-memory over stdio):
 * three workloads, each solved call by call through the bridge and with one `run`, both through
 * `Injector.handle` with a real invoker over `src/mcp/stdio.ts` connections and the Deno sandbox.
 * For each: the tokens of the bridge's answers that reach the model (the project's estimate,
 * ceil(code points / 4), of each answer's text), the tokens the model writes (its arguments and
 * its script), and the model round trips (one per bridge call); then the time a run adds to one
 * execute (p50 of 15, live, the same tool): back to back, each run then waits for its process to
 * start; and 2 s apart, as a model's turns are, when the process started ahead is ready.
 *
 * These measure the mechanics, not a model's choices: the steps of each path are written here,
 * as a model that knows the task would take them, and the answers are checked for being right.
 * The result ceiling is off (`maxResultTokens: 0`): it caps one answer, not what a task must read.
 *
 * Run: `deno run -A --node-modules-dir=auto bench/code_mode.ts` (the same first workload through the
 * stdio gateway, as a host meets it: `bench/code_mode_gateway.ts`)
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { Injector, McpCatalog, type McpTool } from "../mod.ts";
import { DenoSandbox } from "../src/deno/code_sandbox.ts";
import { connectStdio } from "../src/mcp/stdio.ts";
import type { McpConnection } from "../src/mcp/types.ts";
import { estimateTokens } from "../src/tokens.ts";
import { npmServer } from "../test/mcp/_servers.ts";

const dir = await Deno.makeTempDir({ prefix: "unfold-code-bench-" });
const files = `${dir}/files`;
const texts = `${dir}/texts`;
await Deno.mkdir(files);
await Deno.mkdir(texts);
// 200 files of distinct sizes, the three largest at known names; 10 texts of known line counts.
for (let i = 0; i < 200; i++) {
  await Deno.writeTextFile(
    `${files}/file_${String(i).padStart(3, "0")}.log`,
    "x".repeat(((i * 7919) % 200) * 53 + 10),
  );
}
const lines = Array.from({ length: 10 }, (_, i) => 150 + i * 37);
for (let i = 0; i < 10; i++) {
  const text = Array.from(
    { length: lines[i]! },
    (_, n) => `line ${n} of text ${i}: some words to read`,
  );
  await Deno.writeTextFile(`${texts}/text_${i}.md`, text.join("\n") + "\n");
}

const connections: McpConnection[] = [];
async function connect(
  server: string,
  pkg: string,
  args: string[],
  env: Record<string, string> = {},
) {
  const connection = await connectStdio({ server, ...npmServer(pkg, ...args), env });
  connections.push(connection);
  return connection;
}

const sandbox = new DenoSandbox({ prewarm: 1 });
const rows: string[] = [];
const tokens = (value: unknown) =>
  estimateTokens(typeof value === "string" ? value : JSON.stringify(value));
// What an execute's answer puts before the model: its text (a host shows the text; some show the
// structured copy instead or as well, which this leaves out: the call-by-call figure is the lower).
const answerTokens = (answer: { toolResult: unknown }) => {
  const result = answer.toolResult;
  if (typeof result === "string") return tokens(result);
  const content = (result as { content?: unknown }).content;
  return tokens(content ?? result);
};

interface Path {
  steps: Record<string, unknown>[];
  check: (last: unknown) => void;
}

async function solve(
  name: string,
  catalog: McpCatalog,
  connectionOf: (tool: McpTool) => McpConnection,
  paths: { calls: Path; run: Path },
) {
  const figures: Record<string, { read: number; written: number; trips: number }> = {};
  for (const [kind, path] of Object.entries(paths)) {
    // The result ceiling off: it caps one answer, not what a task needs to read (with it, the
    // call-by-call path reads the same tokens in more round trips, one `more` each).
    const injector = new Injector(catalog, {
      codeMode: "all",
      codeLimits: { timeoutMs: 120_000 },
      maxResultTokens: 0,
    });
    const invoker = {
      invoke: (tool: McpTool, args: Record<string, unknown>) =>
        connectionOf(tool).call(tool.name, args),
    };
    let read = 0;
    let written = 0;
    let last: unknown;
    for (const step of path.steps) {
      const answer = await injector.handle(step, invoker, { sandbox });
      if (
        answer.action === "error" || (answer.action === "execute" && answer.isError) ||
        (answer.action === "run" && answer.isError)
      ) {
        throw new Error(`${name}, ${kind}: ${JSON.stringify(answer).slice(0, 500)}`);
      }
      read += answerTokens(answer as { toolResult: unknown });
      written += tokens(step);
      last = answer;
    }
    path.check(last);
    figures[kind] = { read, written, trips: path.steps.length };
  }
  const { calls, run } = figures as Record<
    "calls" | "run",
    { read: number; written: number; trips: number }
  >;
  rows.push(
    `| ${name} | ${calls.read} → ${run.read} | ${calls.written} → ${run.written} | ${calls.trips} → ${run.trips} |`,
  );
}

try {
  const fs = await connect("fs", "@modelcontextprotocol/server-filesystem", [dir]);
  const fsTools = await fs.tools();
  const fsCatalog = new McpCatalog(fsTools);
  const largest = [...Array(200).keys()].sort((a, b) => ((b * 7919) % 200) - ((a * 7919) % 200))
    .slice(0, 3)
    .map((i) => `file_${String(i).padStart(3, "0")}.log`);
  await solve("three largest of 200 files", fsCatalog, () => fs, {
    calls: {
      steps: [
        { action: "search", query: "list a directory with file sizes" },
        { action: "describe", name: "fs/list_directory_with_sizes" },
        {
          action: "execute",
          name: "fs/list_directory_with_sizes",
          arguments: { path: files, sortBy: "size" },
        },
      ],
      check: (last) => {
        const text = JSON.stringify(last);
        for (const file of largest) if (!text.includes(file)) throw new Error(`${file} not listed`);
      },
    },
    run: {
      steps: [
        { action: "search", query: "list a directory with file sizes" },
        { action: "describe", name: "fs/list_directory_with_sizes" },
        {
          action: "run",
          code: `const { content } = await call("fs/list_directory_with_sizes", { path: ${
            JSON.stringify(files)
          }, sortBy: "size" });
return content.split("\\n").filter((line) => line.startsWith("[FILE]")).slice(0, 3).map((line) => line.slice(7).trim().split(/\\s{2,}/)[0]);`,
        },
      ],
      check: (last) => {
        const result = (last as { result: string[] }).result;
        if (JSON.stringify(result) !== JSON.stringify(largest)) {
          throw new Error(`got ${JSON.stringify(result)}`);
        }
      },
    },
  });

  const people = Array.from({ length: 20 }, (_, i) => ({
    name: `person_${i}`,
    entityType: "person",
    observations: [`works in team-${i % 5}`, `joined in ${2010 + i}`],
  }));
  const relations = people.slice(1).map((p, i) => ({
    from: people[i]!.name,
    to: p.name,
    relationType: "works_with",
  }));
  const memories: McpConnection[] = [];
  for (const kind of ["calls", "run"]) {
    memories.push(
      await connect("memory", "@modelcontextprotocol/server-memory", [], {
        MEMORY_FILE_PATH: `${dir}/memory-${kind}.jsonl`,
      }),
    );
  }
  const memoryCatalog = new McpCatalog(await memories[0]!.tools());
  let which = 0;
  const expected = people.filter((_, i) => i % 5 === 2).map((p) => p.name);
  await solve("20 entities, their relations, one query", memoryCatalog, () => memories[which]!, {
    calls: {
      steps: [
        { action: "search", query: "create entities in the knowledge graph" },
        { action: "describe", name: "memory/create_entities" },
        { action: "execute", name: "memory/create_entities", arguments: { entities: people } },
        { action: "describe", name: "memory/create_relations" },
        { action: "execute", name: "memory/create_relations", arguments: { relations } },
        { action: "describe", name: "memory/search_nodes" },
        { action: "execute", name: "memory/search_nodes", arguments: { query: "team-2" } },
      ],
      check: (last) => {
        const text = JSON.stringify(last);
        for (const name of expected) if (!text.includes(name)) throw new Error(`${name} not found`);
        which = 1;
      },
    },
    run: {
      steps: [
        { action: "search", query: "create entities in the knowledge graph" },
        { action: "describe", name: "memory/create_entities" },
        { action: "describe", name: "memory/create_relations" },
        { action: "describe", name: "memory/search_nodes" },
        {
          action: "run",
          code:
            `const people = Array.from({ length: 20 }, (_, i) => ({ name: "person_" + i, entityType: "person", observations: ["works in team-" + (i % 5), "joined in " + (2010 + i)] }));
await call("memory/create_entities", { entities: people });
await call("memory/create_relations", { relations: people.slice(1).map((p, i) => ({ from: people[i].name, to: p.name, relationType: "works_with" })) });
const found = await call("memory/search_nodes", { query: "team-2" });
return found.entities.map((e) => e.name);`,
        },
      ],
      check: (last) => {
        const result = (last as { result: string[] }).result;
        if (JSON.stringify(result) !== JSON.stringify(expected)) {
          throw new Error(`got ${JSON.stringify(result)}`);
        }
      },
    },
  });

  const paths = lines.map((_, i) => `${texts}/text_${i}.md`);
  const counts = Object.fromEntries(lines.map((n, i) => [`text_${i}.md`, n]));
  await solve("a line count over 10 files", fsCatalog, () => fs, {
    calls: {
      steps: [
        { action: "search", query: "read several files at once" },
        { action: "describe", name: "fs/read_multiple_files" },
        { action: "execute", name: "fs/read_multiple_files", arguments: { paths } },
      ],
      check: (last) => {
        if (!JSON.stringify(last).includes("line 0 of text 9")) throw new Error("text 9 not read");
      },
    },
    run: {
      steps: [
        { action: "search", query: "read a text file" },
        { action: "describe", name: "fs/read_text_file" },
        {
          action: "run",
          code: `const counts = {};
for (const path of ${JSON.stringify(paths)}) {
  const { content } = await call("fs/read_text_file", { path });
  counts[path.split("/").pop()] = content.split("\\n").filter((line) => line !== "").length;
}
return counts;`,
        },
      ],
      check: (last) => {
        const result = (last as { result: unknown }).result;
        if (JSON.stringify(result) !== JSON.stringify(counts)) {
          throw new Error(`got ${JSON.stringify(result)}`);
        }
      },
    },
  });

  // The time a run adds to one execute: the same call, live, 15 times each.
  const injector = new Injector(fsCatalog, { codeMode: "read-only" });
  const invoker = {
    invoke: (tool: McpTool, args: Record<string, unknown>) => fs.call(tool.name, args),
  };
  const path = `${texts}/text_0.md`;
  const p50 = async (args: Record<string, unknown>, gapMs = 0) => {
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      const started = performance.now();
      const answer = await injector.handle(args, invoker, { sandbox });
      times.push(performance.now() - started);
      if ((answer as { isError?: boolean }).isError) throw new Error(JSON.stringify(answer));
    }
    return times.sort((a, b) => a - b)[7]!;
  };
  const execute = await p50({ action: "execute", name: "fs/get_file_info", arguments: { path } });
  const run = await p50({
    action: "run",
    code: `return await call("fs/get_file_info", { path: ${JSON.stringify(path)} })`,
  });
  const empty = await p50({ action: "run", code: "return 1" });
  // A model's turn takes seconds: the process started ahead after a run is ready for the next.
  const warm = await p50({
    action: "run",
    code: `return await call("fs/get_file_info", { path: ${JSON.stringify(path)} })`,
  }, 2_000);

  console.log(
    "| workload | tokens to the model (calls → run) | tokens the model writes | round trips |",
  );
  console.log("| --- | ---: | ---: | ---: |");
  for (const row of rows) console.log(row);
  console.log();
  console.log("| p50 of 15, live | ms |");
  console.log("| --- | ---: |");
  console.log(`| one execute (fs/get_file_info) | ${execute.toFixed(1)} |`);
  console.log(`| the same call in one run | ${run.toFixed(1)} |`);
  console.log(`| an empty run (the sandbox alone) | ${empty.toFixed(1)} |`);
  console.log(`| a run's overhead over one execute | ${(run - execute).toFixed(1)} |`);
  console.log(
    `| the same run 2 s after the last (its process started ahead) | ${warm.toFixed(1)} |`,
  );
  console.log(`| its overhead over one execute | ${(warm - execute).toFixed(1)} |`);
} finally {
  for (const connection of connections) await connection.close();
  await sandbox.close();
  await Deno.remove(dir, { recursive: true });
}
