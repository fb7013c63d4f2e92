/**
 * Code mode's contract at the gateway, over real servers (server-filesystem, server-memory,
 * server-everything over stdio), run through a connected client: the stdio and the Streamable
 * HTTP faces run the same cases (`code_mode_test.ts`).
 *
 * The config: trust `pin` with every tool approved but `everything/echo` (so it is held), and a
 * profile `work` of the filesystem's and the memory's tools and `everything/echo` (so
 * `everything/get-sum` is outside it).
 *
 * @module
 */

import { deepEqual, equal, match, ok } from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { readOnlyRefusal } from "../../src/code_mode/render.ts";
import { runCli, writeConfig } from "./_gateway.ts";

/** The files the listing finds, by name, with their sizes (all under 1 KiB: listed in bytes). */
export const FILES: Readonly<Record<string, number>> = {
  "a.txt": 40,
  "b.txt": 900,
  "c.txt": 120,
  "d.txt": 700,
  "e.txt": 500,
};

/** A config for the contract, its files written and its lock approved (but `everything/echo`). */
export async function codeModeConfig(
  unfold: Record<string, unknown> = {},
): Promise<{ path: string; dir: string; files: string }> {
  const { path, dir } = await writeConfig({
    unfold: {
      trust: "pin",
      profiles: {
        work: { tools: ["filesystem/*", "memory/*", "everything/echo"] },
      },
      ...unfold,
    },
  });
  const files = `${dir}/files`;
  await Deno.mkdir(files);
  for (const [name, size] of Object.entries(FILES)) {
    await Deno.writeTextFile(`${files}/${name}`, "x".repeat(size));
  }
  const approved = await runCli(["approve", "--config", path, "--all"]);
  equal(approved.code, 0, approved.stderr);
  const lockFile = `${dir}/unfold.lock.json`;
  const lock = JSON.parse(await Deno.readTextFile(lockFile));
  ok(lock.tools["everything/echo"], "echo was approved, to be taken back");
  delete lock.tools["everything/echo"];
  await Deno.writeTextFile(lockFile, JSON.stringify(lock, null, 2));
  return { path, dir, files };
}

/** A run's answer as the host reads it. */
export interface RunRead {
  /** The text block. */
  text: string;
  /** The structured copy. */
  structured: {
    action: string;
    result: unknown;
    logs: string[];
    calls: { id: string; ok: boolean; error?: string }[];
    error?: { code: string; message: string; line?: number; column?: number };
    untrusted?: string[];
  };
  /** Whether the result is an error. */
  isError: boolean;
}

/** Runs a script through the bridge `mcp` of a client. */
export async function run(client: Client, code: string): Promise<RunRead> {
  const result = await client.callTool({ name: "mcp", arguments: { action: "run", code } });
  const content = result.content as { type: string; text: string }[];
  equal(content.length, 1);
  equal(content[0]!.type, "text");
  return {
    text: content[0]!.text,
    structured: result.structuredContent as RunRead["structured"],
    isError: result.isError === true,
  };
}

/** The script that lists a folder and returns its three largest files. */
export function largestScript(folder: string): string {
  return `
    const listing = await call("filesystem/list_directory_with_sizes", { path: ${
    JSON.stringify(folder)
  } });
    const files = listing.content.split("\\n").map((line) => line.trim())
      .filter((line) => line.startsWith("[FILE]"))
      .map((line) => {
        const [, name, size] = /^\\[FILE\\] (\\S+)\\s+(\\d+) B$/.exec(line);
        return { name, size: Number(size) };
      });
    files.sort((a, b) => b.size - a.size);
    console.log(files.length + " files");
    return files.slice(0, 3);
  `;
}

/**
 * The cases every face answers alike.
 *
 * @param client A client of the gateway serving the profile `work` of {@linkcode codeModeConfig}.
 * @param files The folder of {@linkcode FILES}.
 * @param left The sandbox processes alive now: once a run has answered, at most the one the
 * gateway starts ahead (it has run nothing).
 */
export async function codeModeContract(
  client: Client,
  files: string,
  left: () => number,
): Promise<void> {
  // The bridge offers run (read-only), and its input schema takes code.
  const { tools } = await client.listTools();
  const bridge = tools.find((tool) => tool.name === "mcp")!;
  match(bridge.description ?? "", /run: JavaScript/);
  ok((bridge.inputSchema.properties as Record<string, unknown>).code, "the schema takes code");
  ok(
    (bridge.inputSchema.properties as { action: { enum: string[] } }).action.enum.includes("run"),
  );

  // Three largest files, in one run: one real call.
  const largest = await run(client, largestScript(files));
  equal(largest.isError, false, largest.text);
  deepEqual(largest.structured.result, [
    { name: "b.txt", size: 900 },
    { name: "d.txt", size: 700 },
    { name: "e.txt", size: 500 },
  ]);
  deepEqual(largest.structured.logs, ["5 files"]);
  deepEqual(largest.structured.calls, [{ id: "filesystem/list_directory_with_sizes", ok: true }]);
  equal(largest.structured.action, "run");
  deepEqual(JSON.parse(largest.text).result, largest.structured.result, "the text says the same");
  // A run leaves no process: at most the one the gateway starts ahead for the next run (fresh).
  ok(left() <= 1, `${left()} sandbox processes`);

  // read-only: a write throws with the exact refusal, and nothing is called.
  const write = await run(
    client,
    `try { await call("memory/create_entities", { entities: [{ name: "x", entityType: "t", observations: [] }] }); return "written"; } catch (e) { return e.message; }`,
  );
  equal(write.structured.result, readOnlyRefusal("memory/create_entities"));
  deepEqual(write.structured.calls, []);
  const graph = await run(client, `return await call("memory/read_graph", {});`);
  equal(graph.isError, false, graph.text);
  deepEqual((graph.structured.result as { entities: unknown[] }).entities, [], "nothing written");

  // A held tool (trust pin, never approved) throws, saying it awaits approval.
  const held = await run(client, `return await call("everything/echo", { message: "hi" });`);
  equal(held.isError, true);
  equal(held.structured.error?.code, "script_error");
  match(held.structured.error?.message ?? "", /unfold approve/);
  equal(
    held.structured.error?.message,
    `Error: ${await executeMessage(client, "everything/echo")}`,
  );
  deepEqual(held.structured.calls, []);

  // A tool outside the profile does not exist for the script.
  const outside = await run(client, `return await call("everything/get-sum", { a: 1, b: 2 });`);
  equal(outside.isError, true);
  equal(outside.structured.error?.code, "script_error");
  match(outside.structured.error?.message ?? "", /no tool "everything\/get-sum"/);
  equal(
    outside.structured.error?.message,
    `Error: ${await executeMessage(client, "everything/get-sum")}`,
    "a script is told what an execute is told",
  );
  deepEqual(outside.structured.calls, []);

  // Invalid arguments throw with the problems; search and describe use the gateway's catalogue.
  const found = await run(
    client,
    `const hits = await search("list directory sizes", 3);
     const tool = await describe(hits[0].id);
     let problem = "";
     try { await call("filesystem/list_directory", {}); } catch (e) { problem = e.message; }
     return { ids: hits.map((h) => h.id), schema: Object.keys(tool.inputSchema.properties), problem };`,
  );
  equal(found.isError, false, found.text);
  const value = found.structured.result as { ids: string[]; schema: string[]; problem: string };
  ok(value.ids.includes("filesystem/list_directory_with_sizes"), value.ids.join());
  ok(value.ids.every((id) => !id.startsWith("everything/") || id === "everything/echo"));
  ok(value.schema.includes("path"));
  match(value.problem, /path/);

  // A syntax error names its line and column.
  const syntax = await run(client, "const a = 1;\nreturn a +;");
  equal(syntax.isError, true);
  equal(syntax.structured.error?.code, "syntax_error");
  equal(syntax.structured.error?.line, 2);
  equal(typeof syntax.structured.error?.column, "number");
  match(syntax.text, /line 2/);

  // describe through the bridge gives the declaration for code.
  const described = await client.callTool({
    name: "mcp",
    arguments: { action: "describe", name: "filesystem/list_directory_with_sizes" },
  });
  // Runs that failed, refused or hit a bound left nothing either.
  const busy = await run(client, "while (true) {}");
  equal(busy.structured.error?.code, "limit");
  ok(left() <= 1, `${left()} sandbox processes`);
  match(
    (described.content as { text: string }[])[0]!.text,
    /For code: await call\("filesystem\/list_directory_with_sizes", args: \{ path: string; sortBy\?: "name" \| "size" \}\): Promise<\{ content: string \}>/,
  );
}

// What the bridge's execute of a tool is told when it fails (its structured message).
async function executeMessage(client: Client, name: string): Promise<string> {
  const result = await client.callTool({
    name: "mcp",
    arguments: { action: "execute", name, arguments: { message: "hi", a: 1, b: 2 } },
  });
  equal(result.isError, true);
  return (result.structuredContent as { message: string }).message;
}

/**
 * The sandbox processes among this process's descendants (Linux `/proc`): the gateway's runs are
 * its children, and the gateway this test's.
 */
export function sandboxDescendants(): number {
  const parents = new Map<number, number>();
  const sandboxes: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry.name), ppid);
      if (Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).includes(SANDBOX_PROGRAM)) {
        sandboxes.push(Number(entry.name));
      }
    } catch {
      continue; // gone meanwhile
    }
  }
  const mine = (pid: number) => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) {
      if (at === Deno.pid) return true;
    }
    return false;
  };
  return sandboxes.filter(mine).length;
}

// What a sandbox process's command line holds: the start of its data: URL program.
const SANDBOX_PROGRAM = "data:text/javascript,import%20vm%20from%20%22node%3Avm%22";
