// `unfold setup HOST` on each host's file as its documentation shows it: the servers move into
// unfold's config under the host's profile, the host keeps one unfold entry and all else, twice
// changes nothing, --dry-run writes nothing, --undo with nothing changed since gives back the
// bytes (and takes away the config setup made); and a real MCP client started from the entry
// each host got finds that host's servers' tools, and only those.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { runCli } from "../gateway/_gateway.ts";
import { denoEnv, npmServer } from "../mcp/_servers.ts";
import { parseHostText } from "../../src/cli/hosts/files.ts";
import { HOST_NAMES, HOSTS } from "../../src/cli/hosts/known.ts";
import { type FixtureServers, hostFixture, type StdioServer } from "./_host_fixtures.ts";

function stdio(pkg: string, ...args: string[]): StdioServer {
  const { command, args: full } = npmServer(pkg, ...args);
  return { command, args: [...full], env: { ...denoEnv(), UNFOLD_FIXTURE: pkg } };
}

const HTTP = { name: "remote", url: "http://127.0.0.1:9/mcp", token: "t0ken" };

async function read(path: string): Promise<Uint8Array | undefined> {
  return await Deno.readFile(path).catch(() => undefined);
}

Deno.test("unfold setup round-trips every host's file: one entry, the rest kept, idempotent, undone byte for byte", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-setup-" });
  try {
    const servers: FixtureServers = {
      stdio: {
        memory: stdio("@modelcontextprotocol/server-memory"),
        everything: stdio("@modelcontextprotocol/server-everything", "stdio"),
      },
      http: HTTP,
    };
    for (const host of HOST_NAMES) {
      const fixture = hostFixture(host, servers);
      const file = `${dir}/${host}/${fixture.file}`;
      await Deno.mkdir(`${dir}/${host}`);
      await Deno.writeTextFile(file, fixture.text);
      const original = await Deno.readFile(file);
      const env = { ...denoEnv(), UNFOLD_CONFIG_DIR: `${dir}/unfold-${host}` };
      const config = `${dir}/unfold-${host}/mcp.json`;
      const setup = (...more: string[]) => runCli(["setup", host, "--file", file, ...more], env);

      const dry = await setup("--dry-run");
      equal(dry.code, 0, dry.stderr);
      ok(dry.stdout.includes(`+++ ${config}`) && dry.stdout.includes(`+++ ${file}`), dry.stdout);
      deepEqual(await Deno.readFile(file), original, `${host}: --dry-run wrote the host's file`);
      equal(await read(config), undefined, `${host}: --dry-run wrote unfold's config`);

      const done = await setup();
      equal(done.code, 0, `${host}: ${done.stderr}`);
      match(done.stdout, new RegExp(`^Moved 3 servers \\(memory, everything, remote\\) from `));
      const after = await Deno.readTextFile(file);
      const key = HOSTS[host]!.serversKey;
      const [before, now] = [fixture.text, after].map((text) => {
        const parsed = parseHostText(text, file);
        ok(parsed.ok && parsed.value !== undefined, `${host}: ${text}`);
        return parsed.value as Record<string, Record<string, unknown>>;
      });
      deepEqual(Object.keys(now![key]!), ["unfold"], `${host}: ${after}`);
      const others = (value: Record<string, unknown>) =>
        JSON.stringify(Object.entries(value).filter(([k]) => k !== key));
      equal(others(now!), others(before!), `${host} lost a setting: ${after}`);
      if (fixture.kept !== undefined) ok(after.includes(fixture.kept), `${host}: ${after}`);
      const unfold = JSON.parse(await Deno.readTextFile(config));
      deepEqual(unfold.unfold.profiles[host], { servers: ["memory", "everything", "remote"] });
      deepEqual(unfold.mcpServers.memory, servers.stdio.memory, host);
      equal(unfold.mcpServers.remote.url, HTTP.url, host);
      ok(
        /^Bearer (t0ken|\$\{UNFOLD_FIXTURE_TOKEN\})$/.test(
          unfold.mcpServers.remote.headers.Authorization,
        ),
        `${host}: ${JSON.stringify(unfold.mcpServers.remote)}`,
      );

      const [hostBytes, configBytes] = [await Deno.readFile(file), await Deno.readFile(config)];
      const twice = await setup();
      equal(twice.code, 0, twice.stderr);
      match(twice.stdout, /nothing to change/);
      deepEqual(
        await Deno.readFile(file),
        hostBytes,
        `${host}: setup twice changed the host's file`,
      );
      deepEqual(await Deno.readFile(config), configBytes, `${host}: setup twice changed unfold's`);

      const undone = await setup("--undo");
      equal(undone.code, 0, undone.stderr);
      deepEqual(await Deno.readFile(file), original, `${host}: --undo did not restore the bytes`);
      equal(await read(config), undefined, `${host}: --undo left the config setup made`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("unfold setup of an unknown host is one line naming the hosts, exit 2", async () => {
  const run = await runCli(["setup", "claude-desktp", "--dry-run"]);
  equal(run.code, 2);
  equal(
    run.stderr,
    `unfold: unknown host claude-desktp; did you mean "claude-desktop"? (hosts: ${
      HOST_NAMES.join(", ")
    })\n`,
  );
});

// The tools a client started from a host's unfold entry can describe, among those asked about.
async function describable(entry: { command: string; args: string[] }, ids: string[]) {
  const client = new Client({ name: "setup-test", version: "1.0.0" });
  await client.connect(
    // The whole config is read, so the variable another host's server reads must be set too.
    new StdioClientTransport({
      ...entry,
      env: { ...denoEnv(), UNFOLD_FIXTURE_TOKEN: "t0ken" },
      stderr: "ignore",
    }),
    { timeout: 60_000 },
  );
  try {
    const found: string[] = [];
    for (const name of ids) {
      const result = await client.callTool({
        name: "mcp",
        arguments: { action: "describe", name },
      }, { timeout: 60_000 });
      if (!result.isError) found.push(name);
    }
    return found;
  } finally {
    await client.close();
  }
}

Deno.test({
  name:
    "two hosts set up: a real client started from each host's entry finds its servers' tools, and only those",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "unfold-setup-hosts-" });
    try {
      const env = { ...denoEnv(), UNFOLD_CONFIG_DIR: `${dir}/unfold` };
      const memory = stdio("@modelcontextprotocol/server-memory");
      memory.env.MEMORY_FILE_PATH = `${dir}/memory.jsonl`;
      const hosts = {
        "claude-desktop": {
          memory,
          everything: stdio("@modelcontextprotocol/server-everything", "stdio"),
        },
        vscode: { memory, filesystem: stdio("@modelcontextprotocol/server-filesystem", dir) },
      };
      const entries: Record<string, { command: string; args: string[] }> = {};
      const files: string[] = [];
      for (const [host, servers] of Object.entries(hosts)) {
        const fixture = hostFixture(host, { stdio: servers, http: HTTP });
        const file = `${dir}/${host}-${fixture.file}`;
        files.push(file);
        await Deno.writeTextFile(file, fixture.text);
        const done = await runCli(["setup", host, "--file", file], env);
        equal(done.code, 0, done.stderr);
        const parsed = parseHostText(await Deno.readTextFile(file), file);
        ok(parsed.ok);
        const key = HOSTS[host]!.serversKey;
        entries[host] = (parsed.value as Record<string, Record<string, never>>)[key]!.unfold!;
      }
      const ids = ["memory/read_graph", "everything/echo", "filesystem/read_text_file"];
      deepEqual(await describable(entries["claude-desktop"]!, ids), [
        "memory/read_graph",
        "everything/echo",
      ]);
      deepEqual(await describable(entries.vscode!, ids), [
        "memory/read_graph",
        "filesystem/read_text_file",
      ]);
      // Undoing one host keeps what the other still uses.
      const undone = await runCli(["setup", "claude-desktop", "--file", files[0]!, "--undo"], env);
      equal(undone.code, 0, undone.stderr);
      const unfold = JSON.parse(await Deno.readTextFile(`${dir}/unfold/mcp.json`));
      deepEqual(Object.keys(unfold.mcpServers), ["memory", "filesystem", "vscode-remote"]);
      deepEqual(Object.keys(unfold.unfold.profiles), ["vscode"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("setup on a host that has no file yet writes nothing, and says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-setup-new-" });
  try {
    const env = { ...denoEnv(), UNFOLD_CONFIG_DIR: `${dir}/unfold` };
    const file = `${dir}/cursor/mcp.json`;
    const done = await runCli(["setup", "cursor", "--file", file], env);
    equal(done.code, 0, done.stderr);
    equal(done.stdout, `Found no servers for Cursor to move (${file}): nothing was written\n`);
    equal(await read(file), undefined);
    equal(await read(`${dir}/unfold/mcp.json`), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the entry starts the installed unfold when it is on the PATH", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-setup-path-" });
  try {
    await Deno.mkdir(`${dir}/bin`);
    await Deno.writeTextFile(`${dir}/bin/unfold`, "#!/bin/sh\n");
    await Deno.chmod(`${dir}/bin/unfold`, 0o755);
    const env = {
      ...denoEnv(),
      UNFOLD_CONFIG_DIR: `${dir}/unfold`,
      PATH: `${dir}/bin:${Deno.env.get("PATH")}`,
    };
    const file = `${dir}/settings.json`;
    await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { m: { command: "m" } } }));
    const done = await runCli(["setup", "gemini", "--file", file], env);
    equal(done.code, 0, done.stderr);
    deepEqual(JSON.parse(await Deno.readTextFile(file)).mcpServers.unfold, {
      command: `${dir}/bin/unfold`,
      args: ["gateway", "--config", `${dir}/unfold/mcp.json`, "--profile", "gemini"],
      env: { DENO_NO_UPDATE_CHECK: "1" },
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
