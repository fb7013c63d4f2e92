// `--config` takes a host's own file as it is: other top-level keys left out and named once on
// stderr, VS Code's JSONC `servers`, Codex's TOML; what only the host can resolve (`${input:…}`)
// is that server's problem: it is unavailable, saying what to write instead.
import { deepEqual, equal, match } from "node:assert/strict";
import { runCli } from "../../gateway/_gateway.ts";
import { denoEnv, npmServer } from "../../mcp/_servers.ts";
import { hostFixture } from "../_host_fixtures.ts";
import { readHostFile } from "../../../src/cli/hosts/files.ts";
import { readPlainHostFile } from "../../../src/cli/hosts/entries.ts";

const memory = () => ({ ...npmServer("@modelcontextprotocol/server-memory"), env: {} });

async function inspectFile(name: string, text: string) {
  const dir = await Deno.makeTempDir({ prefix: "unfold-host-file-" });
  try {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    const env = { ...denoEnv(), UNFOLD_FIXTURE_TOKEN: "t" };
    return {
      path: `${dir}/${name}`,
      ...(await runCli(["inspect", "--config", `${dir}/${name}`], env)),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const HTTP = { name: "remote", url: "http://127.0.0.1:9/mcp", token: "t" };

for (const host of ["claude-desktop", "vscode", "codex"]) {
  Deno.test(`inspect --config reads ${host}'s own file as it is`, async () => {
    const fixture = hostFixture(host, { stdio: { memory: memory() }, http: HTTP });
    const run = await inspectFile(fixture.file, fixture.text);
    equal(run.code, 0, run.stderr);
    match(run.stdout, /\nmemory\s+ready\s+9\s/);
    match(run.stdout, /\nremote\s+(lost|failed)/);
    const leftOut = run.stderr.split("\n").filter((line) => line.includes("leaving out"));
    equal(leftOut.length, 1, run.stderr);
  });
}

Deno.test("a host file's other keys are named once, in one line", async () => {
  const fixture = hostFixture("claude-desktop", { stdio: { memory: memory() }, http: HTTP });
  const run = await inspectFile(fixture.file, fixture.text);
  equal(
    run.stderr.split("\n").find((line) => line.includes("leaving out")),
    `unfold: ${run.path}: leaving out the top-level keys "globalShortcut", "preferences" (not unfold's)`,
  );
});

Deno.test("a VS Code server that reads ${input:…} is unavailable saying what to write instead; the others serve", async () => {
  const text = `{
  // asks the user
  "inputs": [{ "type": "promptString", "id": "api-key", "password": true }],
  "servers": { "gh": { "type": "http", "url": "https://example.com/mcp",
    "headers": { "Authorization": "Bearer \${input:api-key}" } },
    "memory": ${JSON.stringify(memory())} },
}`;
  const run = await inspectFile("mcp.json", text);
  equal(run.code, 0, run.stderr);
  match(run.stdout, /\nmemory\s+ready\s+9\s/);
  match(run.stdout, /\ngh\s+unavailable \(below\)/);
  const line =
    `unfold: gh: unavailable (its entry is invalid at /servers/gh: uses \${input:api-key}, which only VS Code can ask for: set the value in an environment variable and write \${env:NAME} (or \${NAME}) instead; correct it in the config, then start unfold again)\n`;
  equal(run.stderr.split(line).length, 2, run.stderr);
});

Deno.test("each host's way of writing an entry becomes unfold's", () => {
  const cases: [string, string, unknown][] = [
    ["w.json", '{"mcpServers":{"a":{"serverUrl":"https://x/mcp","disabled":false}}}', {
      url: "https://x/mcp",
    }],
    ["g.json", '{"mcpServers":{"a":{"httpUrl":"https://x/mcp","timeout":5}}}', {
      url: "https://x/mcp",
    }],
    ["v.json", '{"servers":{"a":{"type":"stdio","command":"c","env":{"K":"${env:HOME}"}}}}', {
      command: "c",
      env: { K: "${HOME}" },
    }],
    [
      "c.toml",
      '[mcp_servers.a]\nurl = "https://x/mcp"\nbearer_token_env_var = "T"\nenabled = false\n' +
      'env_http_headers = { "X-Key" = "K" }\n',
      {
        url: "https://x/mcp",
        disabled: true,
        headers: { Authorization: "Bearer ${T}", "X-Key": "${K}" },
      },
    ],
  ];
  for (const [path, text, entry] of cases) {
    const read = readHostFile(text, path);
    deepEqual(read.ok && (read.value.config as { mcpServers: unknown }).mcpServers, { a: entry });
  }
});

Deno.test("a TOML file that does not parse is one line, exit 1", async () => {
  const run = await inspectFile("config.toml", "[mcp_servers.a\n");
  equal(run.code, 1);
  match(run.stderr, /^unfold: \S+config\.toml: not TOML \(.+\)\n$/);
});

Deno.test("a plain JSON file reads as the JSONC reader reads it; the rest is left to that reader", () => {
  const plain = [
    '{"mcpServers":{"a":{"serverUrl":"https://x/mcp","disabled":false}}}',
    '{"servers":{"a":{"type":"stdio","command":"c","env":{"K":"${env:HOME}"}}}}',
    '{"globalShortcut":"","mcpServers":{"fs":{"command":"npx","timeout":5}}}',
    '{"mcpServers":{"gh":{"url":"https://x/mcp","headers":{"A":"${input:key}"}}}}',
    '{"mcpServers":[]}',
    "[1]",
    "42",
    hostFixture("claude-desktop", { stdio: { memory: memory() }, http: HTTP }).text,
  ];
  for (const text of plain) {
    deepEqual(readPlainHostFile(text, "mcp.json"), readHostFile(text, "mcp.json"), text);
  }
  const others: [string, string][] = [
    ["mcp.json", '{\n  // a comment\n  "mcpServers": {},\n}'],
    ["mcp.json", "{"],
    ["mcp.json", hostFixture("vscode", { stdio: { memory: memory() }, http: HTTP }).text],
    ["mcp.json", '{"__proto__":{"mcpServers":{}}}'],
    ["config.toml", "[mcp_servers.a]\ncommand = 'c'\n"],
    ["config.toml", '{"mcpServers":{}}'],
  ];
  for (const [path, text] of others) equal(readPlainHostFile(text, path), undefined, text);
});
