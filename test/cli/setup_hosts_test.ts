// `unfold setup` against the hosts' own programs (Claude Code, Codex CLI, Gemini CLI from npm,
// each in a home of its own): the servers their `mcp add` wrote in each scope are moved, the host
// still starts unfold, and `--undo` after the host's own `mcp add` keeps what the host added and
// every other key it wrote. And two setups as two processes at once lose nothing.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { cliCommand } from "../gateway/_gateway.ts";
import { denoEnv } from "../mcp/_servers.ts";
import { hostBin, hostEnv, type HostName } from "../hosts/_hosts.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Run> {
  const out = await new Deno.Command(command, { args, cwd, env, clearEnv: true, stdin: "null" })
    .output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

// A home, a git project in it, and the environment both the host and unfold run with.
async function world(prefix: string) {
  const dir = await Deno.makeTempDir({ prefix });
  const home = `${dir}/home`;
  const project = `${home}/app`;
  await Deno.mkdir(`${project}/.git`, { recursive: true });
  const env = { ...hostEnv(home), ...denoEnv(), UNFOLD_CONFIG_DIR: `${dir}/unfold` };
  const host = async (name: HostName, ...args: string[]) => {
    const done = await run(await hostBin(name), args, project, env);
    equal(done.code, 0, `${name} ${args.join(" ")}: ${done.stderr}`);
    return done;
  };
  const unfold = (...args: string[]) => {
    const { command, args: full } = cliCommand(...args);
    return run(command, full, project, env);
  };
  return { dir, home, project, env, host, unfold };
}

function claudeServers(data: Record<string, unknown>, project: string) {
  const projects = data.projects as Record<string, { mcpServers?: Record<string, unknown> }>;
  return {
    local: Object.keys(projects[project]?.mcpServers ?? {}),
    user: Object.keys((data.mcpServers ?? {}) as object),
  };
}

Deno.test({
  name:
    "Claude Code: its local, project and user servers move; --undo after its own mcp add keeps that server and its keys",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const w = await world("unfold-setup-claude-");
    try {
      await w.host("claude-code", "mcp", "add", "mem", "--", "echo", "local");
      await w.host("claude-code", "mcp", "add", "-s", "project", "pj", "--", "echo", "project");
      await w.host("claude-code", "mcp", "add", "-s", "user", "us", "--", "echo", "user");
      const file = `${w.home}/.claude.json`;
      const done = await w.unfold("setup", "claude-code");
      equal(done.code, 0, done.stderr);
      match(done.stdout, /^Moved 3 servers \(mem, pj, us\) from /);
      // `mcp add -s project` leaves the server waiting for the user's approval: it moves off.
      match(
        done.stdout,
        /^Moved disabled, since Claude Code runs them only once approved .*: pj$/m,
      );
      let data = JSON.parse(await Deno.readTextFile(file));
      deepEqual(claudeServers(data, w.project), { local: [], user: ["unfold"] });
      deepEqual(JSON.parse(await Deno.readTextFile(`${w.project}/.mcp.json`)).mcpServers, {});
      // The host itself starts unfold from the entry, and reports it connected.
      const listed = await w.host("claude-code", "mcp", "list");
      match(listed.stdout, /^unfold: .* - ✔ Connected$/m);
      // A day of use: the host writes its file, and adds a server in its default scope.
      await w.host("claude-code", "mcp", "add", "added", "--", "echo", "since");
      const keys = Object.keys(JSON.parse(await Deno.readTextFile(file))).sort();
      const undone = await w.unfold("setup", "claude-code", "--undo");
      equal(undone.code, 0, undone.stderr);
      data = JSON.parse(await Deno.readTextFile(file));
      deepEqual(claudeServers(data, w.project), { local: ["added", "mem"], user: ["us"] });
      deepEqual(Object.keys(data).sort(), keys, "a key Claude Code wrote is gone");
      deepEqual(
        Object.keys(JSON.parse(await Deno.readTextFile(`${w.project}/.mcp.json`)).mcpServers),
        ["pj"],
      );
      const back = await w.host("claude-code", "mcp", "get", "mem");
      match(back.stdout, /Scope: Local config/);
    } finally {
      await Deno.remove(w.dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "Codex: --undo after codex mcp add keeps the added server and the file's other tables",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const w = await world("unfold-setup-codex-");
    try {
      const file = `${w.home}/.codex/config.toml`;
      await Deno.mkdir(`${w.home}/.codex`, { recursive: true });
      await Deno.writeTextFile(
        file,
        '# mine\nmodel = "o3"\n\n[profiles.fast]\nmodel = "o4-mini"\n',
      );
      await w.host("codex", "mcp", "add", "first", "--", "echo", "first");
      const done = await w.unfold("setup", "codex");
      equal(done.code, 0, done.stderr);
      match(done.stdout, /^Moved 1 server \(first\) from /);
      await w.host("codex", "mcp", "add", "second", "--", "echo", "second");
      const listed = await w.host("codex", "mcp", "list");
      ok(/^unfold\s/m.test(listed.stdout) && /^second\s/m.test(listed.stdout), listed.stdout);
      const undone = await w.unfold("setup", "codex", "--undo");
      equal(undone.code, 0, undone.stderr);
      const text = await Deno.readTextFile(file);
      ok(text.startsWith('# mine\nmodel = "o3"\n'), text);
      const data = parseToml(text) as Record<string, Record<string, unknown>>;
      deepEqual(Object.keys(data.mcp_servers!).sort(), ["first", "second"]);
      deepEqual(data.profiles, { fast: { model: "o4-mini" } });
    } finally {
      await Deno.remove(w.dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "Gemini CLI: its project and user servers move; --undo after gemini mcp add keeps that server",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const w = await world("unfold-setup-gemini-");
    try {
      await w.host("gemini", "mcp", "add", "gp", "echo", "project");
      await w.host("gemini", "mcp", "add", "-s", "user", "gu", "echo", "user");
      const project = `${w.project}/.gemini/settings.json`;
      const user = `${w.home}/.gemini/settings.json`;
      const done = await w.unfold("setup", "gemini");
      equal(done.code, 0, done.stderr);
      match(done.stdout, /^Moved 2 servers \(gp, gu\) from /);
      deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(user)).mcpServers), ["unfold"]);
      await w.host("gemini", "mcp", "add", "late", "echo", "since");
      const undone = await w.unfold("setup", "gemini", "--undo");
      equal(undone.code, 0, undone.stderr);
      deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(project)).mcpServers).sort(), [
        "gp",
        "late",
      ]);
      deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(user)).mcpServers), ["gu"]);
    } finally {
      await Deno.remove(w.dir, { recursive: true });
    }
  },
});

Deno.test("two setups as two processes at once lose nothing", async () => {
  const w = await world("unfold-setup-processes-");
  try {
    const cursor = `${w.home}/.cursor/mcp.json`;
    const windsurf = `${w.home}/.codeium/windsurf/mcp_config.json`;
    await Deno.mkdir(`${w.home}/.cursor`, { recursive: true });
    await Deno.mkdir(`${w.home}/.codeium/windsurf`, { recursive: true });
    for (let round = 0; round < 5; round++) {
      await Deno.writeTextFile(
        cursor,
        JSON.stringify({ mcpServers: { [`c${round}`]: { command: "c" } } }),
      );
      await Deno.writeTextFile(
        windsurf,
        JSON.stringify({ mcpServers: { [`w${round}`]: { command: "w" } } }),
      );
      const runs = await Promise.all([w.unfold("setup", "cursor"), w.unfold("setup", "windsurf")]);
      for (const done of runs) equal(done.code, 0, done.stderr);
      const config = JSON.parse(await Deno.readTextFile(`${w.dir}/unfold/mcp.json`));
      deepEqual(Object.keys(config.mcpServers).sort(), [`c${round}`, `w${round}`]);
      deepEqual(Object.keys(config.unfold.profiles).sort(), ["cursor", "windsurf"]);
      const undos = await Promise.all([
        w.unfold("setup", "cursor", "--undo"),
        w.unfold("setup", "windsurf", "--undo"),
      ]);
      for (const done of undos) equal(done.code, 0, done.stderr);
      equal(await Deno.stat(`${w.dir}/unfold/mcp.json`).then(() => true, () => false), false);
    }
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});
