/**
 * The Workers' cold path, measured honestly here: each Worker bundle that `wrangler deploy
 * --dry-run` builds (its gzip size against its ceiling, and what it is made of), then its first
 * request in fresh V8 isolates (a new `deno` process each, code generation from strings disallowed
 * as on Workers): the API Worker by reference to a stored 1,000-tool catalogue whose index is
 * stored, and by value; the gateway Worker's first `/mcp` request (a 2026-07-28 `tools/list` over
 * one HTTP upstream). The first request's CPU time is what this benchmark holds: the isolate's own
 * thread, as Workers count it, and the whole process's (every thread), an upper bound.
 *
 * Run: `deno run -A bench/cold_isolate.ts [runs=5] [tools=1000]` (part of `deno task bench`)
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { liveMcpBenchOf, SEARCH } from "./_catalogues.ts";
import { gzipSize } from "../test/_gzip.ts";
import { WORKER_CEILINGS_KIB } from "../test/workers/_budgets.ts";
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "@modelcontextprotocol/server";

const runs = Number(Deno.args[0] ?? 5);
const size = Number(Deno.args[1] ?? 1000);
const ROOT = new URL("../", import.meta.url).pathname;
const KIB = 1024;
// The ranking data the Worker fetches from its static assets at its first search.
const ASSETS = `${ROOT}src/page/ranking-en.bin`;

// Builds a Worker's bundle as a deploy would, with its metafile.
async function build(config: string, out: string): Promise<void> {
  const built = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "npm:wrangler@^4.164.0",
      "deploy",
      "--dry-run",
      "--config",
      config,
      "--outdir",
      `${out}/dist`,
      "--metafile",
      `${out}/meta.json`,
    ],
    cwd: ROOT,
    env: { WRANGLER_SEND_METRICS: "false", CI: "true" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!built.success) throw new Error(new TextDecoder().decode(built.stderr));
}

// A bundle made importable by a plain Deno process: cloudflare:workers as a stand-in module.
async function importable(out: string, name: string): Promise<string> {
  await Deno.writeTextFile(
    `${out}/dist/cloudflare_workers.js`,
    "export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }\n" +
      "export const env = globalThis.workerEnv;\n",
  );
  const source = new TextDecoder().decode(await Deno.readFile(`${out}/dist/${name}.js`))
    .replaceAll(/from\s*"cloudflare:workers"/g, 'from "./cloudflare_workers.js"');
  await Deno.writeTextFile(`${out}/dist/worker.js`, source);
  return `${out}/dist/worker.js`;
}

async function sizeLine(label: string, config: string, bundle: string): Promise<void> {
  const code = await Deno.readFile(bundle);
  const gzip = await gzipSize(code);
  const ceiling = WORKER_CEILINGS_KIB[config]!;
  console.log(
    `${label} bundle: ${(code.length / KIB).toFixed(1)} KiB, ${(gzip / KIB).toFixed(2)} KiB gzip ` +
      `(ceiling ${ceiling} KiB)`,
  );
}

const dir = await Deno.makeTempDir({ prefix: "unfold-cold-" });
try {
  // The bundle, as deployed.
  await build("wrangler.toml", dir);
  await sizeLine("API Worker", "wrangler.toml", `${dir}/dist/entry.js`);
  const assetBytes = await Deno.readFile(ASSETS);
  console.log(
    `Ranking data (static asset, fetched once per isolate): ${
      (assetBytes.length / KIB).toFixed(1)
    } KiB, ${((await gzipSize(assetBytes)) / KIB).toFixed(1)} KiB gzip`,
  );
  console.log(`largest parts (bytes in the bundle, before gzip):`);
  for (const [part, bytes] of bundleParts(`${dir}/meta.json`).slice(0, 10)) {
    console.log(`  ${(bytes / KIB).toFixed(1).padStart(7)} KiB  ${part}`);
  }

  // The bundle imports DurableObject from cloudflare:workers: a stand-in base class.
  await importable(dir, "entry");

  const { tools, servers } = liveMcpBenchOf(size);
  await Deno.writeTextFile(
    `${dir}/value.json`,
    JSON.stringify({ catalog: tools, servers, arguments: SEARCH }),
  );
  const child = async (mode: string, body: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--no-config",
        "--v8-flags=--disallow-code-generation-from-strings",
        `${ROOT}bench/_cold_child.ts`,
        `${dir}/dist/worker.js`,
        `${dir}/record.json`,
        mode,
        body,
        ASSETS,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    return JSON.parse(new TextDecoder().decode(out.stdout)) as Record<string, number | boolean>;
  };
  // Store the catalogue (and, once a search built it, its index) as the first isolate would.
  const stored = await child("store", `${dir}/value.json`);
  const record = JSON.parse(await Deno.readTextFile(`${dir}/record.json`));
  const hash = await catalogHashOf(`${dir}/dist/worker.js`, `${dir}/value.json`);
  await Deno.writeTextFile(
    `${dir}/ref.json`,
    JSON.stringify({ catalogRef: hash, arguments: SEARCH }),
  );
  console.log(
    `\n${tools.length}-tool catalogue: ${
      ((await Deno.stat(`${dir}/value.json`)).size / KIB).toFixed(0)
    } KiB by value; stored as ${record.text.length} text chunk(s)${
      stored.indexStored ? ` and an index of ${record.index.chunks} chunk(s)` : ", no index"
    }`,
  );
  console.log(
    "| fresh isolate | startup (import) | first request | request, all threads | " +
      "JSON.parse of the by-value body | wall, import + request | warm request | ranker |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  let firstByRef = 0;
  for (
    const [label, mode, body] of [
      ["by reference (stored index)", "ref", `${dir}/ref.json`],
      ["by value", "value", `${dir}/value.json`],
    ] as const
  ) {
    const results: Record<string, number | boolean>[] = [];
    for (let i = 0; i < runs; i++) results.push(await child(mode, body));
    const med = (key: string) => median(results.map((r) => r[key] as number)).toFixed(1);
    const parse = await child("value", `${dir}/value.json`);
    if (mode === "ref") firstByRef = median(results.map((r) => r.threadRequestMs as number));
    console.log(
      `| ${label} | ${med("threadImportMs")} ms | ${med("threadRequestMs")} ms | ${
        med("requestMs")
      } ms | ${(parse.parseMs as number).toFixed(1)} ms | ${med("wallMs")} ms | ${
        med("threadWarmMs")
      } ms | ${results[0]!.ranker} |`,
    );
  }
  console.log(
    `First request by reference, loading the ranking data included: ${firstByRef.toFixed(1)} ms = ${
      (firstByRef / 25).toFixed(2)
    } x the 25 ms target.`,
  );
  console.log(
    `(CPU time, median of ${runs} fresh processes. Startup and first request: the isolate's own ` +
      "thread, as Workers count it (clock_gettime of CLOCK_THREAD_CPUTIME_ID); all threads: " +
      "the whole process, an upper bound.)",
  );
  await gatewayWorker(`${dir}/gateway`);
} finally {
  if (Deno.env.get("UNFOLD_KEEP") === undefined) await Deno.remove(dir, { recursive: true });
  else console.log(`kept ${dir}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

// The catalogHash the Worker answers for a body (one more fresh process would do; this is cheaper).
async function catalogHashOf(bundle: string, body: string): Promise<string> {
  const worker = (await import(bundle)).default;
  const store = { text: undefined as unknown };
  const catalogs = {
    idFromName: (name: string) => name,
    get: () => ({
      save: () => Promise.resolve(),
      saveIndex: () => Promise.resolve(true),
      load: () => Promise.resolve(store.text),
    }),
  };
  const response = await worker.fetch(
    new Request("http://unfold.test/v1/route", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: await Deno.readTextFile(body),
    }),
    { SESSIONS: {}, CATALOGS: catalogs },
  );
  const answer = await response.json();
  if (typeof answer.catalogHash !== "string") throw new Error(JSON.stringify(answer).slice(0, 500));
  return answer.catalogHash;
}

// Bytes in the bundle by package (zod by subpath) or by folder of ours, largest first.
function bundleParts(metafile: string): [string, number][] {
  const meta = JSON.parse(Deno.readTextFileSync(metafile));
  const output = Object.entries(meta.outputs).find(([name]) => name.endsWith(".js"))![1] as {
    inputs: Record<string, { bytesInOutput: number }>;
  };
  const parts = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const pkg = path.match(/node_modules\/(?:\.deno\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/);
    const part = pkg ? pkg[1]! : path.replace(/^.*?src\//, "src/").split("/").slice(0, 2).join("/");
    parts.set(part, (parts.get(part) ?? 0) + bytesInOutput);
  }
  return [...parts].sort((a, b) => b[1] - a[1]);
}

// The gateway Worker: its bundle, then its first /mcp request in fresh isolates, over one HTTP
// upstream served by this process (an SDK server with one tool).
async function gatewayWorker(out: string): Promise<void> {
  await Deno.mkdir(out, { recursive: true });
  await build("wrangler.gateway.toml", out);
  console.log("");
  await sizeLine("Gateway Worker", "wrangler.gateway.toml", `${out}/dist/gateway_entry.js`);
  for (const [part, bytes] of bundleParts(`${out}/meta.json`).slice(0, 8)) {
    console.log(`  ${(bytes / KIB).toFixed(1).padStart(7)} KiB  ${part}`);
  }
  const bundle = await importable(out, "gateway_entry");
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "up", version: "1.0.0" });
    server.registerTool("echo", { description: "Echoes its text back" }, () => ({
      content: [{ type: "text", text: "echo" }],
    }));
    return server;
  });
  await using upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => handler.fetch(request),
  );
  const url = `http://127.0.0.1:${upstream.addr.port}/mcp`;
  const results: Record<string, number | string>[] = [];
  for (let i = 0; i < runs; i++) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--no-config",
        "--v8-flags=--disallow-code-generation-from-strings",
        `${ROOT}bench/_cold_gateway_child.ts`,
        bundle,
        url,
        ASSETS,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    results.push(JSON.parse(new TextDecoder().decode(out.stdout)));
  }
  const med = (key: string) => median(results.map((r) => r[key] as number)).toFixed(1);
  console.log(
    "| fresh isolate | startup (import) | first request | request, all threads | warm request | ranker |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | --- |");
  console.log(
    `| gateway, /mcp tools/list (2026-07-28, one HTTP upstream) | ${med("threadImportMs")} ms | ${
      med("threadRequestMs")
    } ms | ${med("requestMs")} ms | ${med("threadWarmMs")} ms | ${results[0]!.ranker} |`,
  );
  await handler.close();
}
