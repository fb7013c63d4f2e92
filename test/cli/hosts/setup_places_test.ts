// Every place a host keeps servers, and every byte setup does not touch: Claude Code's local and
// project scopes, Gemini's project file, the variables that move the files, `--scope`, a dry run
// that lists them all; BOM, line endings, bytes that are not UTF-8, comments, a symlink, modes;
// names that are `Object.prototype`'s, disabled servers, a server named unfold.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { parseGatewayConfig } from "../../../src/gateway/config/parse.ts";
import { json, sandbox } from "./_sandbox.ts";

const MEMORY = { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] };
const FS = {
  type: "stdio",
  command: "npx",
  args: ["-y", "@modelcontextprotocol/server-filesystem"],
};

const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);

Deno.test("Claude Code's local and project scopes are moved, keyed by the git root, and undone", async () => {
  await using box = await sandbox();
  await Deno.mkdir(`${box.project}/.git`);
  await Deno.mkdir(`${box.project}/src`);
  const claude = `${box.home}/.claude.json`;
  await box.write(
    claude,
    json({
      numStartups: 7,
      projects: { [box.project]: { allowedTools: [], mcpServers: { memory: MEMORY } } },
      mcpServers: {},
    }),
  );
  // A project's servers run in Claude Code once approved: db was, fs was not.
  await box.write(
    `${box.project}/.mcp.json`,
    json({ mcpServers: { fs: FS, db: { command: "db" } } }),
  );
  await box.write(
    `${box.project}/.claude/settings.local.json`,
    json({ enabledMcpjsonServers: ["db"] }),
  );
  const before = [await box.read(claude), await box.read(`${box.project}/.mcp.json`)];
  const dry = await box.run("claude-code", { dryRun: true, cwd: `${box.project}/src` });
  deepEqual(dry.out.slice(0, 4), [
    "Claude Code keeps servers in:",
    `  local    ${claude} projects["${box.project}"]: memory`,
    `  project  ${box.project}/.mcp.json: fs, db`,
    `  user     ${claude}: none`,
  ]);
  equal(await exists(box.config), false);
  equal(await exists(`${box.dir}/unfold`), false, "a dry run wrote unfold's folder");
  const done = await box.run("claude-code", { cwd: `${box.project}/src` });
  equal(done.code, 0, done.err.join("\n"));
  match(
    done.out[0]!,
    /^Moved 3 servers \(memory, fs, db\) from .*\.claude\.json \(local\), .*\.mcp\.json \(project\) into /,
  );
  equal(
    done.out[1],
    `Moved disabled, since Claude Code runs them only once approved for this project (enable ` +
      `them in ${box.config} when you trust them): fs`,
  );
  const after = await box.json(claude);
  const local =
    (after.projects as Record<string, { mcpServers: Record<string, unknown> }>)[box.project]!;
  deepEqual(Object.keys(local.mcpServers), ["unfold"], "the entry goes where the servers were");
  deepEqual(after.mcpServers, {});
  deepEqual((await box.json(`${box.project}/.mcp.json`)).mcpServers, {});
  const config = await box.json(box.config);
  deepEqual(config.mcpServers, {
    memory: MEMORY,
    fs: { command: FS.command, args: FS.args, disabled: true },
    db: { command: "db" },
  });
  deepEqual((config.unfold as { profiles: unknown }).profiles, {
    "claude-code": { servers: ["memory", "fs", "db"] },
  });
  equal((await box.run("claude-code", { undo: true })).code, 0);
  deepEqual([await box.read(claude), await box.read(`${box.project}/.mcp.json`)], before);
});

Deno.test("--scope moves one scope's servers; the user's scope gets the entry before a project's", async () => {
  await using box = await sandbox();
  const claude = `${box.home}/.claude.json`;
  await box.write(
    claude,
    json({
      projects: { [box.project]: { mcpServers: { memory: MEMORY } } },
      mcpServers: { fs: FS },
    }),
  );
  const user = await box.run("claude-code", { scope: "user" });
  equal(user.code, 0, user.err.join("\n"));
  let data = await box.json(claude);
  deepEqual(Object.keys(data.mcpServers as object), ["unfold"]);
  deepEqual((data.projects as Record<string, { mcpServers: object }>)[box.project]!.mcpServers, {
    memory: MEMORY,
  });
  const rest = await box.run("claude-code");
  equal(rest.code, 0, rest.err.join("\n"));
  data = await box.json(claude);
  deepEqual((data.projects as Record<string, { mcpServers: object }>)[box.project]!.mcpServers, {});
  const bad = await box.run("claude-code", { scope: "locl" });
  equal(bad.code, 2);
  deepEqual(bad.err, [
    'unfold: Claude Code has no scope locl; did you mean "local"? (scopes: user, local, project)',
  ]);
  // Undo one scope alone: the local scope's server goes back, the user's stays moved.
  const local = await box.run("claude-code", { undo: true, scope: "local" });
  equal(local.code, 0, local.err.join("\n"));
  data = await box.json(claude);
  deepEqual((data.projects as Record<string, { mcpServers: object }>)[box.project]!.mcpServers, {
    memory: MEMORY,
  });
  deepEqual(Object.keys(data.mcpServers as object), ["unfold"]);
  deepEqual(Object.keys((await box.json(box.config)).mcpServers as object), ["fs"]);
});

Deno.test("CLAUDE_CONFIG_DIR, GEMINI_CLI_HOME and CODEX_HOME move the hosts' files; Gemini's project file too", async () => {
  await using box = await sandbox();
  const env = {
    ...box.env,
    CLAUDE_CONFIG_DIR: `${box.dir}/claude`,
    GEMINI_CLI_HOME: `${box.dir}/gemini`,
    CODEX_HOME: `${box.dir}/codex`,
  };
  await box.write(`${box.dir}/claude/.claude.json`, json({ mcpServers: { memory: MEMORY } }));
  await box.write(
    `${box.dir}/gemini/.gemini/settings.json`,
    json({ mcpServers: { memory: MEMORY } }),
  );
  await box.write(`${box.project}/.gemini/settings.json`, json({ mcpServers: { fs: FS } }));
  await box.write(`${box.dir}/codex/config.toml`, '[mcp_servers.memory]\ncommand = "npx"\n');
  for (const [host, count] of [["claude-code", 1], ["gemini", 2], ["codex", 1]] as const) {
    const done = await box.run(host, { env });
    equal(done.code, 0, `${host}: ${done.err.join("\n")}`);
    match(done.out[0]!, new RegExp(`^Moved ${count} server`), host);
  }
  ok((await box.read(`${box.dir}/codex/config.toml`)).includes("[mcp_servers.unfold]"));
  // Gemini's entry is in the user's file: the project's file keeps none.
  deepEqual((await box.json(`${box.project}/.gemini/settings.json`)).mcpServers, {});
  deepEqual(
    Object.keys((await box.json(`${box.dir}/gemini/.gemini/settings.json`)).mcpServers as object),
    ["unfold"],
  );
});

Deno.test("no servers found: nothing is written, and the host's file is not rewritten", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.gemini/settings.json`;
  await box.write(file, '{"theme": "Dracula"}');
  const run = await box.run("gemini");
  equal(run.code, 0);
  deepEqual(run.out, [`Found no servers for Gemini CLI to move (${file}): nothing was written`]);
  equal(await box.read(file), '{"theme": "Dracula"}');
  equal(await exists(`${box.dir}/unfold/setup/gemini`), false);
});

Deno.test("bytes setup does not touch stay the same: BOM, CRLF, non-UTF-8 bytes, comments", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.config/Code/User/mcp.json`;
  const text =
    '// mine\r\n{\r\n  "note": "caf\xff",\r\n  "servers": {\r\n    "memory": {"command": "npx"}\r\n  }\r\n}\r\n';
  // "\xff" stands for one byte that is not UTF-8; the file starts with a BOM.
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...[...text].map((c) => c.charCodeAt(0))]);
  await box.write(file, bytes);
  const done = await box.run("vscode");
  equal(done.code, 0, done.err.join("\n"));
  const after = await Deno.readFile(file);
  deepEqual([...after.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  const latin = [...after].map((b) => String.fromCharCode(b)).join("");
  ok(latin.includes('// mine\r\n{\r\n  "note": "caf\xff",\r\n'), latin);
  ok(!/[^\r]\n/.test(latin), `a line break lost its CR: ${JSON.stringify(latin)}`);
  const entry = ((await box.json(box.config)).mcpServers as Record<string, unknown>).memory;
  deepEqual(entry, { command: "npx" });
  // The host adds a key: undo is an edit again, and every other byte stays.
  const more = latin.replace('"note"', '"added": 1,\r\n  "note"');
  await box.write(file, new Uint8Array([...more].map((c) => c.charCodeAt(0))));
  equal((await box.run("vscode", { undo: true })).code, 0);
  const undone = [...await Deno.readFile(file)].map((b) => String.fromCharCode(b)).join("");
  ok(
    undone.startsWith('\xef\xbb\xbf// mine\r\n{\r\n  "added": 1,\r\n  "note": "caf\xff",\r\n'),
    undone,
  );
  ok(undone.includes('"memory": {"command": "npx"}'), undone);
});

Deno.test("a symlinked host file: its target is edited, the link stays, mode and all", async () => {
  await using box = await sandbox();
  const real = `${box.dir}/dotfiles/cursor-mcp.json`;
  await box.write(real, json({ mcpServers: { memory: MEMORY } }));
  await Deno.chmod(real, 0o640);
  const original = await box.read(real);
  await Deno.mkdir(`${box.home}/.cursor`);
  const link = `${box.home}/.cursor/mcp.json`;
  await Deno.symlink(real, link);
  equal((await box.run("cursor")).code, 0);
  ok((await Deno.lstat(link)).isSymlink, "the link was replaced");
  ok((await box.read(real)).includes('"unfold"'));
  equal((await Deno.stat(real)).mode! & 0o777, 0o640);
  equal((await box.run("cursor", { undo: true })).code, 0);
  ok((await Deno.lstat(link)).isSymlink, "--undo replaced the link");
  equal(await box.read(real), original);
});

Deno.test("a read-only host file or folder is refused in one line before anything is written", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.cursor/mcp.json`;
  await box.write(file, json({ mcpServers: { memory: MEMORY } }));
  await Deno.chmod(file, 0o444);
  let run = await box.run("cursor");
  equal(run.code, 1);
  deepEqual(run.err, [
    `unfold: ${file} is read-only (mode 0444): nothing was written; make it writable (chmod u+w ` +
    `${file}) or leave it out (--scope, --file)`,
  ]);
  equal(await exists(box.config), false);
  equal(await exists(`${box.dir}/unfold/setup/cursor`), false);
  await Deno.chmod(file, 0o644);
  await Deno.chmod(`${box.home}/.cursor`, 0o555);
  run = await box.run("cursor");
  equal(run.code, 1);
  match(run.err[0]!, /^unfold: .*\/\.cursor is read-only \(mode 0555\): nothing was written; /);
  equal(run.err.length, 1);
  equal(await exists(box.config), false);
  await Deno.chmod(`${box.home}/.cursor`, 0o755);
  // unfold's own folder read-only: refused before the host's file is touched.
  await Deno.mkdir(`${box.dir}/unfold`, { recursive: true });
  await Deno.chmod(`${box.dir}/unfold`, 0o555);
  run = await box.run("cursor");
  equal(run.code, 1);
  match(run.err[0]!, /unfold is read-only \(mode 0555\)/);
  ok((await box.read(file)).includes('"memory"'));
  await Deno.chmod(`${box.dir}/unfold`, 0o755);
});

Deno.test("mcpServers twice at the top is refused in one line, nothing written", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.cursor/mcp.json`;
  const text = '{"mcpServers": {"a": {"command": "a"}}, "mcpServers": {"b": {"command": "b"}}}';
  await box.write(file, text);
  const run = await box.run("cursor");
  equal(run.code, 1);
  deepEqual(run.err, [
    `unfold: ${file} has the key "mcpServers" twice at the top level: hosts read one of them, ` +
    "editors may show the other; keep one and run setup again",
  ]);
  equal(await box.read(file), text);
  equal(await exists(box.config), false);
});

Deno.test("names that are Object.prototype's are servers like any other, moved and put back", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.cursor/mcp.json`;
  const servers = {
    constructor: { command: "c" },
    toString: { command: "t" },
    hasOwnProperty: { command: "h" },
    valueOf: { command: "v" },
  };
  await box.write(file, json({ mcpServers: servers }));
  const done = await box.run("cursor");
  equal(done.code, 0, done.err.join("\n"));
  match(done.out[0]!, /^Moved 4 servers \(constructor, toString, hasOwnProperty, valueOf\) from /);
  equal(done.out.length, 1, `none renamed: ${done.out.join("\n")}`);
  deepEqual((await box.json(box.config)).mcpServers, servers);
  equal((await box.run("cursor", { undo: true })).code, 0);
  deepEqual((await box.json(file)).mcpServers, servers);
});

Deno.test("disabled servers move as disabled, a server named unfold is renamed, and both are said", async () => {
  await using box = await sandbox();
  const cursor = `${box.home}/.cursor/mcp.json`;
  await box.write(
    cursor,
    json({
      mcpServers: { off: { command: "off", disabled: true }, unfold: { command: "my-unfold" } },
    }),
  );
  const codex = `${box.home}/.codex/config.toml`;
  await box.write(codex, '[mcp_servers.paused]\ncommand = "p"\nenabled = false\n');
  const one = await box.run("cursor");
  equal(one.code, 0, one.err.join("\n"));
  deepEqual(one.out.slice(1), [
    `Renamed unfold to cursor-unfold in ${box.config}: unfold's own entry is named unfold`,
    `Moved disabled, and still disabled in ${box.config}: off`,
  ]);
  const two = await box.run("codex");
  equal(two.code, 0, two.err.join("\n"));
  const config = await box.json(box.config);
  deepEqual(config.mcpServers, {
    off: { command: "off", disabled: true },
    "cursor-unfold": { command: "my-unfold" },
    paused: { command: "p", disabled: true },
  });
  deepEqual((config.unfold as { profiles: unknown }).profiles, {
    cursor: { servers: ["off", "cursor-unfold"] },
    codex: { servers: ["paused"] },
  });
  ok(parseGatewayConfig(config, {}).ok, "the gateway refuses the config setup wrote");
  equal((await box.run("cursor", { undo: true })).code, 0);
  deepEqual((await box.json(cursor)).mcpServers, {
    off: { command: "off", disabled: true },
    unfold: { command: "my-unfold" },
  });
});

Deno.test("the entry setup writes keeps Deno from checking for updates", async () => {
  await using box = await sandbox();
  for (const host of ["cursor", "codex"]) {
    const file = host === "cursor"
      ? `${box.home}/.cursor/mcp.json`
      : `${box.home}/.codex/config.toml`;
    await box.write(
      file,
      host === "cursor"
        ? json({ mcpServers: { m: MEMORY } })
        : '[mcp_servers.m]\ncommand = "npx"\n',
    );
    equal((await box.run(host)).code, 0);
  }
  const cursor = (await box.json(`${box.home}/.cursor/mcp.json`)).mcpServers as Record<
    string,
    { env: unknown }
  >;
  deepEqual(cursor.unfold!.env, { DENO_NO_UPDATE_CHECK: "1" });
  ok((await box.read(`${box.home}/.codex/config.toml`)).includes(
    '[mcp_servers.unfold.env]\nDENO_NO_UPDATE_CHECK = "1"',
  ));
});
