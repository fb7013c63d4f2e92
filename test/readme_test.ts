import { deepEqual, equal, ok } from "node:assert/strict";
import { PROBLEMS } from "../src/http/problems.ts";
import { SETTING_VARIABLES } from "../src/http/settings.ts";
import { startDenoServer, startWrangler } from "./e2e/_processes.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

import { dirname } from "node:path";
import { ROOT, runDeno } from "./_deno.ts";
import { HOSTS } from "../src/cli/hosts/known.ts";

// The README and the docs that took over most of its text: what they show is run and checked here,
// whichever of them it now lives in.
const FILES = [
  "README.md",
  "docs/gateway.md",
  "docs/http.md",
  "docs/workers.md",
  "docs/deno.md",
  "docs/adapters.md",
  "docs/limits.md",
  "docs/performance.md",
  "docs/development.md",
];
const TEXTS = new Map(
  await Promise.all(
    FILES.map(async (file): Promise<[string, string]> => [
      file,
      await Deno.readTextFile(`${ROOT}${file}`),
    ]),
  ),
);

// Their fenced blocks, with their language and the file each is in.
const BLOCKS = FILES.flatMap((file) =>
  [...TEXTS.get(file)!.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    file,
    lang: m[1]!,
    code: m[2]!,
  }))
);

// The one file that holds a table whose header row starts with this text.
function tableIn(header: string): string {
  const holders = FILES.filter((file) => TEXTS.get(file)!.includes(header));
  deepEqual(holders.length, 1, `the table "${header}" is in ${holders.length} files`);
  const text = TEXTS.get(holders[0]!)!;
  const start = text.indexOf(header);
  return text.slice(start, text.indexOf("\n\n", start));
}

// Every shell block is either a curl session (run as one script against deno task start) or a
// list of commands, each of which a runner below must claim: a command no runner claims fails
// the first test, so a new command cannot be added to the README or these docs untested.
const shellBlocks = BLOCKS.filter((b) => b.lang === "sh");
const sessions = shellBlocks.filter((b) => b.code.includes("curl "));
// A command shown in several places runs once, named by the first file that shows it.
const shownIn = new Map<string, string>();
for (const block of shellBlocks.filter((b) => !b.code.includes("curl "))) {
  for (const line of block.code.split("\n")) {
    const command = line.replace(/\s+#.*$/, "").trim();
    if (command !== "" && !command.startsWith("#") && !shownIn.has(command)) {
      shownIn.set(command, block.file);
    }
  }
}
const commands = [...shownIn.keys()];

// Commands no test can run here, each with the reason; the docs say so next to them.
const NEEDS_AN_ACCOUNT = [
  "deno run -A npm:wrangler@^4.164.0 secret put UNFOLD_API_TOKEN",
  "deno task deploy",
];

type Runner = (command: string) => Promise<void>;
const RUNNERS: [RegExp, Runner][] = [
  [/^deno task start$/, runStart],
  [/^deno task test$/, runByCi],
  [/^deno task dev( .*)?$/, runDev],
  [/^deno task deploy --dry-run( .*)?$/, runDeployDryRun],
  [/^deno task install$/, runQuickStart],
  [/^unfold (setup \S+|inspect)$/, runQuickStart],
  [/^(deno task )?unfold (inspect|search) /, runUnfold],
  [/^(deno task )?unfold gateway --config \S+$/, runGatewayStdio],
  [/^(deno task )?unfold gateway --config \S+ --http --port \d+$/, runGatewayHttp],
];

function runnerOf(command: string): Runner | undefined {
  return RUNNERS.find(([pattern]) => pattern.test(command))?.[1];
}

Deno.test("every command in the README's and docs' shell blocks has a test that runs it", () => {
  ok(commands.length >= 6, commands.join("\n"));
  for (const command of commands) {
    if (NEEDS_AN_ACCOUNT.includes(command)) continue;
    ok(
      runnerOf(command),
      `${shownIn.get(command)} runs "${command}" but no test does: add a runner`,
    );
  }
  for (const command of NEEDS_AN_ACCOUNT) ok(commands.includes(command), command);
  equal(sessions.length, 1, "one curl session, run below");
});

for (const command of commands.filter((c) => !NEEDS_AN_ACCOUNT.includes(c))) {
  Deno.test(`${shownIn.get(command)}'s command runs: ${command}`, () =>
    runnerOf(command)!(command));
}

// deno task start on the port the system chooses (the README's 8787 may be taken): it answers.
async function runStart(): Promise<void> {
  const server = await startDenoServer();
  try {
    equal((await (await fetch(`${server.url}/healthz`)).json()).ok, true);
  } finally {
    await server.close();
  }
}

// deno task test cannot run inside itself: CI runs it, after installing what it needs.
async function runByCi(command: string): Promise<void> {
  const ci = await Deno.readTextFile(`${ROOT}.ci/run`);
  ok(ci.split("\n").includes(command), `.ci/run does not run ${command}`);
}

// deno task dev with the README's arguments, on port 0; a token given as a variable is enforced.
async function runDev(command: string): Promise<void> {
  const args = command.split(" ").slice(3);
  const port = args.indexOf("--port");
  if (port !== -1) args.splice(port, 2);
  const worker = await startWrangler("wrangler.toml", {}, undefined, args);
  try {
    const token = /--var UNFOLD_API_TOKEN:(\S+)/.exec(command)?.[1];
    if (token !== undefined) {
      const session = `${worker.url}/v1/sessions/readme`;
      equal((await (await fetch(session)).json()).code, "unauthorized");
      const authorized = await fetch(session, { headers: { authorization: `Bearer ${token}` } });
      equal((await authorized.json()).code, "not_found");
    }
  } finally {
    await worker.close();
  }
}

// deno task deploy --dry-run bundles the Worker offline (into a temporary directory).
async function runDeployDryRun(command: string): Promise<void> {
  const outdir = await Deno.makeTempDir({ prefix: "unfold-readme-dist-" });
  try {
    const args = command.split(" ").slice(1).map((arg) => arg === "dist" ? outdir : arg);
    const out = await runDeno(args, { env: { WRANGLER_SEND_METRICS: "false", CI: "true" } });
    equal(out.code, 0, out.stdout + out.stderr);
    ok((await Deno.stat(`${outdir}/entry.js`)).size > 0);
  } finally {
    await Deno.remove(outdir, { recursive: true });
  }
}

// The README's words of a command line ("quoted words" kept whole).
function words(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

// The arguments of deno that run a command: `unfold …` (the installed command) is `deno task
// unfold …` inside the clone.
function denoArgs(command: string): string[] {
  const all = words(command);
  return all[0] === "unfold" ? ["task", "unfold", ...all.slice(1)] : all.slice(1);
}

// The README's quick start, run once in order whichever of its lines a test asks for: `deno task
// install` into a folder of its own, `unfold setup HOST` on a host file that holds the example's
// servers beside a setting of the host's, `unfold inspect` through the installed command.
let quickStart: Promise<void> | undefined;
function runQuickStart(): Promise<void> {
  return quickStart ??= quickStartOnce();
}

async function quickStartOnce(): Promise<void> {
  const block = /## Quick start: the gateway\n\n```sh\n([\s\S]*?)```/.exec(TEXTS.get("README.md")!);
  ok(block, "the README has no quick start block");
  const lines = block[1]!.trim().split("\n").map((line) => line.replace(/\s+#.*$/, ""));
  const dir = await Deno.makeTempDir({ prefix: "unfold-readme-quick-start-" });
  try {
    const env = { ...Deno.env.toObject(), DENO_INSTALL_ROOT: dir, XDG_CONFIG_HOME: `${dir}/xdg` };
    delete (env as Record<string, string | undefined>).UNFOLD_CONFIG_DIR;
    const run = async (command: string, args: string[]) => {
      const out = await new Deno.Command(command, { args, cwd: ROOT, env, stdin: "null" }).output();
      const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
      equal(out.code, 0, `${command} ${args.join(" ")}: ${text(out.stderr)}`);
      return text(out.stdout);
    };
    for (const line of lines) {
      const [first, ...args] = words(line);
      if (first === "deno") {
        ok((await run(Deno.execPath(), args)).startsWith(`Installed unfold: ${dir}/bin/unfold`));
        continue;
      }
      if (args[0] === "setup") {
        const example = JSON.parse(await Deno.readTextFile(`${ROOT}examples/gateway/mcp.json`));
        const file = HOSTS[args[1]!]!.path(env, Deno.build.os);
        await Deno.mkdir(dirname(file), { recursive: true });
        const host = { globalShortcut: "Alt+Space", mcpServers: example.mcpServers };
        await Deno.writeTextFile(file, JSON.stringify(host));
      }
      const stdout = await run(`${dir}/bin/unfold`, args);
      if (args[0] === "setup") {
        ok(stdout.startsWith("Moved 3 servers (everything, filesystem, memory)"), stdout);
        // A minute for each server to start, as runUnfold gives, on two busy cores.
        const config = `${dir}/xdg/unfold/mcp.json`;
        const unfold = JSON.parse(await Deno.readTextFile(config));
        unfold.unfold.startupTimeoutMs = 60_000;
        await Deno.writeTextFile(config, JSON.stringify(unfold));
      } else {
        ok(stdout.startsWith("server ") && stdout.includes("1,000,000"), stdout);
        for (const server of ["everything", "filesystem", "memory"]) {
          ok(new RegExp(`\n${server}\\s+ready`).test(stdout), stdout);
        }
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// deno task unfold inspect|search: it exits 0 and prints what the README says it prints. The
// example config keeps the default five-second startup wait, and a command rightly goes on without
// a server that misses it; with other test files starting processes on two busy cores, one did.
// So the command runs on a copy of the example, in a temporary directory, that waits a minute.
async function runUnfold(command: string): Promise<void> {
  const args = denoArgs(command);
  const at = args.indexOf("--config") + 1;
  const example = JSON.parse(await Deno.readTextFile(`${ROOT}${args[at]}`));
  example.unfold = { ...example.unfold, startupTimeoutMs: 60_000 };
  const dir = await Deno.makeTempDir({ prefix: "unfold-readme-config-" });
  try {
    await Deno.writeTextFile(`${dir}/mcp.json`, JSON.stringify(example));
    args[at] = `${dir}/mcp.json`;
    const { code, stdout, stderr } = await runDeno(args);
    equal(code, 0, stderr);
    for (const server of ["everything", "filesystem", "memory"]) {
      ok(stderr.includes(`unfold: ${server}: ready`), stderr);
    }
    if (command.includes(" search ")) ok(stdout.includes("everything/get-sum"), stdout);
    else if (command.endsWith("--json")) equal(JSON.parse(stdout).tools, 36);
    else ok(stdout.startsWith("server ") && stdout.includes("1,000,000"), stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// deno task unfold gateway (stdio): an MCP client lists its tools.
async function runGatewayStdio(command: string): Promise<void> {
  const client = new Client({ name: "readme", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: denoArgs(command),
      cwd: ROOT,
      stderr: "ignore",
    }),
  );
  try {
    deepEqual((await client.listTools()).tools.map((t) => t.name), [
      "mcp",
      "discover",
      "memory__read_graph",
    ]);
  } finally {
    await client.close();
  }
}

// deno task unfold gateway --http, on the port the system chooses: /mcp answers initialize.
async function runGatewayHttp(command: string): Promise<void> {
  const args = denoArgs(command).map((w, i, all) => all[i - 1] === "--port" ? "0" : w);
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let seen = "";
    let url: string | undefined;
    while (url === undefined) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`the gateway exited: ${seen}`);
      seen += value;
      url = /tools at (http:\/\/\S+\/mcp)/.exec(seen)?.[1];
    }
    const client = new Client({ name: "readme", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    equal((await client.listTools()).tools[0]?.name, "mcp");
    await client.close();
  } finally {
    child.kill("SIGTERM");
    await lines.cancel().catch(() => {});
    await child.status;
  }
}

// The values a "# {...}" comment shows: "key":"value" (a value ending in ... or … is a prefix),
// "key":number and "key":true|false pairs.
function shownValues(comment: string): [string, string, boolean][] {
  return [...comment.matchAll(/"(\w+)":("([^"]*)"|-?\d+|true|false)/g)].map((m) => {
    const raw = m[3] ?? m[2]!;
    const cut = raw.search(/\.\.\.|…/);
    return [m[1]!, cut === -1 ? raw : raw.slice(0, cut), cut !== -1];
  });
}

// Whether a JSON value holds the key with that value (or prefix) anywhere.
function holds(value: unknown, key: string, shown: string, prefix: boolean): boolean {
  if (Array.isArray(value)) return value.some((v) => holds(v, key, shown, prefix));
  if (value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([k, v]) => {
    if (k === key && (typeof v !== "object" || v === null)) {
      const actual = String(v);
      if (prefix ? actual.startsWith(shown) : actual === shown) return true;
    }
    return holds(v, key, shown, prefix);
  });
}

Deno.test("the docs' curl session runs against deno task start as documented", async () => {
  const block = sessions[0]!.code;
  const server = await startDenoServer();
  try {
    // One JSON answer per line: a newline after every curl.
    const script = block.replaceAll("localhost:8787", server.url.replace("http://", ""))
      .replaceAll("curl -s ", "curl -s -w '\\n' ");
    const { code, stdout, stderr } = await new Deno.Command("bash", {
      args: ["-euo", "pipefail", "-c", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    equal(code, 0, new TextDecoder().decode(stderr));
    const answers = new TextDecoder().decode(stdout).trim().split("\n").map((line) =>
      JSON.parse(line)
    );
    equal(answers.length, 6);
    const [inject, search, early, execute, result, session] = answers;
    equal(inject.injection.mode, "manifest");
    equal(inject.injection.bridgeTool.function.name, "mcp");
    equal(search.matches[0].id, "slack/post_message");
    equal(early.error.code, "describe_first");
    deepEqual([execute.action, execute.arguments], ["execute", { channel: "#dev", text: "hi" }]);
    deepEqual(result, { toolResult: "ok", isError: false });
    deepEqual([session.generation, session.described, session.counters.executes], [1, [
      "slack/post_message",
    ], 1]);
    // Each "# {...}" line shows what the curl before it answers: every value it shows is there.
    const shown = block.split("\n").filter((line) => line.startsWith("# {"));
    equal(shown.length, answers.length);
    shown.forEach((comment, i) => {
      for (const [key, value, prefix] of shownValues(comment)) {
        ok(holds(answers[i], key, value, prefix), `answer ${i + 1} has no "${key}": "${value}"`);
      }
    });
  } finally {
    await server.close();
  }
});

Deno.test("the docs' error table lists every problem code with its status, and no other", () => {
  const rows = tableIn("| status | code ").split("\n").slice(2);
  const documented = rows.map((row) => {
    const [, status, code] = row.split("|").map((cell) => cell.trim());
    return `${status} ${code!.replaceAll("`", "")}`;
  });
  deepEqual(
    documented.sort(),
    Object.entries(PROBLEMS).map(([code, { status }]) => `${status} ${code}`).sort(),
  );
});

Deno.test("the docs' settings table lists every UNFOLD_ variable, and no other", () => {
  const rows = tableIn("| variable ").split("\n").slice(2);
  deepEqual(
    rows.map((row) => row.split("|")[1]!.trim().replaceAll("`", "")).sort(),
    Object.values(SETTING_VARIABLES).sort(),
  );
});

Deno.test("the README's and docs' TypeScript blocks run and print what their comments say", async () => {
  const blocks = BLOCKS.filter((b) => b.lang === "ts");
  ok(blocks.length >= 2);
  for (const { file, code } of blocks) {
    // A block importing the package by name is another project's: test/external_project_test.ts.
    if (code.includes('from "@unfold/unfold')) continue;
    // Beside the file that shows it, so that its relative imports resolve as in a doc test.
    const dir = `${ROOT}${file.slice(0, file.lastIndexOf("/") + 1)}`;
    const temp = await Deno.makeTempFile({ dir, prefix: ".readme-", suffix: ".ts" });
    try {
      await Deno.writeTextFile(temp, code);
      const out = await runDeno(["run", "--node-modules-dir=auto", temp]);
      equal(out.code, 0, `${file}: ${out.stderr}`);
      const promised = [...code.matchAll(/\/\/ → (.*)$/gm)].map((m) => m[1]);
      ok(promised.length > 0, "the block says what it prints");
      deepEqual(out.stdout.trim().split("\n"), promised);
    } finally {
      await Deno.remove(temp);
    }
  }
});

Deno.test("the README and docs name only tasks and files that exist", async () => {
  const tasks = Object.keys(JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks);
  const all = FILES.map((file) => TEXTS.get(file)!).join("\n");
  for (const [, task] of all.matchAll(/deno task ([\w:-]+)/g)) {
    ok(tasks.includes(task!), `deno task ${task} is not a task`);
  }
  const paths = new Set(
    [...all.matchAll(/`((?:src|test|bench|examples|docs|testdata|scripts)\/[\w./-]+)`/g)]
      .map((m) => m[1]!)
      .concat([...all.matchAll(/\]\(((?:docs|src|test)\/[\w./-]+)\)/g)].map((m) => m[1]!))
      .concat(
        [...all.matchAll(/(?:deno run [-\w= ]*|python3 |bash )((?:examples|bench)\/[\w./-]+)/g)]
          .map((m) => m[1]!),
      ),
  );
  ok(paths.size > 20, [...paths].join(" "));
  ok(!all.includes("../shared"), "the docs point outside the repository");
  for (const path of paths) {
    const exists = await Deno.stat(`${ROOT}${path}`).then(() => true, () => false);
    ok(exists, `${path} does not exist`);
  }
});
