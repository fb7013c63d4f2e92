/**
 * Driving the real hosts (`_hosts.ts` installs them) in a sandboxed `HOME`: each host's user-scope
 * file written as its own `mcp add` would write it and pointed at a scripted model
 * (`_model.ts`), `unfold setup HOST` run on it, the host's own `mcp list`, and one headless run of a
 * prompt. Other traffic goes to a refusing proxy (`_proxy.ts`).
 *
 * @module
 */

import { join } from "node:path";
import { hostBin, hostEnv, type HostName } from "./_hosts.ts";
import type { ModelTool } from "./_model.ts";
import { RUN_FLAGS } from "../../src/cli/run_flags.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const CLI = join(ROOT, "src/cli/main.ts");

/** An MCP server entry, as hosts write them. */
export interface ServerEntry {
  /** The command. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** Its environment. */
  env?: Record<string, string>;
}

/** A command's outcome. */
export interface Ran {
  /** The exit code. */
  code: number;
  /** Its output. */
  stdout: string;
  /** Its errors. */
  stderr: string;
}

/** What every host needs to know of a sandbox. */
export interface Sandbox {
  /** The sandbox's `HOME`. */
  home: string;
  /** The folder the host runs in (a project folder inside `HOME`). */
  cwd: string;
  /** The environment every command in it gets. */
  env: Record<string, string>;
}

/** The bridge as each host names it (the server entry `unfold setup` writes is `unfold`). */
export const BRIDGE: Record<HostName, (tool: ModelTool) => boolean> = {
  "claude-code": (tool) => tool.name === "mcp__unfold__mcp",
  codex: (tool) => tool.name === "mcp" && tool.namespace === "mcp__unfold",
  gemini: (tool) => tool.name === "mcp_unfold_mcp",
};

/**
 * Makes a sandbox: a fresh `HOME` with a project folder, the environment of `hostEnv` plus the
 * Deno cache the tests run with (the gateway and the npm servers are not downloaded again) and
 * the extra variables.
 *
 * @param extra Variables to add (a proxy, a model API's key).
 * @returns The sandbox.
 */
export async function sandbox(extra: Record<string, string> = {}): Promise<Sandbox> {
  const home = await Deno.makeTempDir({ prefix: "unfold-host-" });
  const cwd = join(home, "project");
  await Deno.mkdir(cwd);
  const denoDir = Deno.env.get("DENO_DIR") ??
    join(Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache"), "deno");
  // A host that passes its servers only HOME and PATH (Codex) still finds the Deno cache there.
  await Deno.mkdir(join(home, ".cache"), { recursive: true });
  await Deno.symlink(denoDir, join(home, ".cache", "deno"));
  return { home, cwd, env: hostEnv(home, { DENO_DIR: denoDir, ...extra }) };
}

async function run(
  command: string,
  args: readonly string[],
  box: Sandbox,
  env: Record<string, string> = {},
  timeoutMs = 240_000,
): Promise<Ran> {
  const child = new Deno.Command(command, {
    args: [...args],
    cwd: box.cwd,
    env: { ...box.env, ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // gone
    }
  }, timeoutMs);
  try {
    const out = await child.output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the unfold CLI of this clone in the sandbox (`unfold setup HOST`, `--undo`, …).
 *
 * @param box The sandbox.
 * @param args The CLI's arguments.
 * @returns The outcome.
 */
export function unfold(box: Sandbox, ...args: string[]): Promise<Ran> {
  return run(Deno.execPath(), [
    "run",
    ...RUN_FLAGS,
    "--config",
    join(ROOT, "deno.json"),
    CLI,
    ...args,
  ], box);
}

/** A host's user-scope file in a sandbox. */
export function hostFile(host: HostName, box: Sandbox): string {
  return host === "claude-code"
    ? join(box.home, ".claude.json")
    : host === "codex"
    ? join(box.home, ".codex", "config.toml")
    : join(box.home, ".gemini", "settings.json");
}

/**
 * Writes a host's user-scope file: pointed at the model, quiet, and with the servers (as that
 * host's `mcp add -s user` writes them).
 *
 * @param host The host.
 * @param box The sandbox.
 * @param model The model API's base URL.
 * @param servers The servers by name.
 */
export async function writeHostFile(
  host: HostName,
  box: Sandbox,
  model: string,
  servers: Record<string, ServerEntry>,
): Promise<void> {
  const file = hostFile(host, box);
  await Deno.mkdir(join(file, ".."), { recursive: true });
  if (host === "claude-code") {
    const mcpServers = Object.fromEntries(
      Object.entries(servers).map(([name, s]) => [name, { type: "stdio", ...s, env: s.env ?? {} }]),
    );
    await Deno.writeTextFile(
      file,
      JSON.stringify({ hasCompletedOnboarding: true, mcpServers }, null, 2),
    );
  } else if (host === "codex") {
    const toml = (value: unknown) => JSON.stringify(value);
    const lines = [
      `model = "gpt-5.5"`,
      `model_provider = "scripted"`,
      `check_for_update_on_startup = false`,
      ``,
      `[analytics]`,
      `enabled = false`,
      ``,
      `[model_providers.scripted]`,
      `name = "scripted"`,
      `base_url = ${toml(`${model}/v1`)}`,
      `wire_api = "responses"`,
      `env_key = "SCRIPTED_API_KEY"`,
    ];
    for (const [name, s] of Object.entries(servers)) {
      lines.push(``, `[mcp_servers.${name}]`, `command = ${toml(s.command)}`);
      lines.push(`args = [${s.args.map(toml).join(", ")}]`);
      if (s.env !== undefined && Object.keys(s.env).length > 0) {
        lines.push(`[mcp_servers.${name}.env]`);
        for (const [k, v] of Object.entries(s.env)) lines.push(`${k} = ${toml(v)}`);
      }
    }
    await Deno.writeTextFile(file, lines.join("\n") + "\n");
  } else {
    await Deno.writeTextFile(
      file,
      JSON.stringify(
        {
          security: { auth: { selectedType: "gemini-api-key" } },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          mcpServers: servers,
        },
        null,
        2,
      ),
    );
  }
}

/** The variables that point a host at the scripted model. */
export function modelEnv(host: HostName, model: string): Record<string, string> {
  return host === "claude-code"
    ? { ANTHROPIC_BASE_URL: model, ANTHROPIC_API_KEY: "sk-ant-scripted" }
    : host === "codex"
    ? { SCRIPTED_API_KEY: "sk-scripted" }
    : { GOOGLE_GEMINI_BASE_URL: model, GEMINI_API_KEY: "scripted" };
}

/**
 * The host's own `mcp list`.
 *
 * @param host The host.
 * @param box The sandbox.
 * @returns The outcome (Gemini CLI writes its list on stderr).
 */
export async function mcpList(
  host: HostName,
  box: Sandbox,
  env: Record<string, string> = {},
): Promise<Ran> {
  return run(await hostBin(host), ["mcp", "list"], box, env);
}

/** Options of {@linkcode runPrompt}. */
export interface PromptOptions {
  /** Variables for this run (the model's, Claude Code's `MCP_CONNECTION_NONBLOCKING`, …). */
  env?: Record<string, string>;
  /** More arguments for the host. */
  args?: string[];
  /** How long it may take. */
  timeoutMs?: number;
}

/**
 * Runs one prompt headless, as each host documents it: `claude -p` (with the unfold server's
 * tools allowed, as a user allows them), `codex exec`, `gemini -p`.
 *
 * @param host The host.
 * @param box The sandbox.
 * @param prompt The prompt.
 * @param options Variables and arguments.
 * @returns The outcome.
 */
export async function runPrompt(
  host: HostName,
  box: Sandbox,
  prompt: string,
  options: PromptOptions = {},
): Promise<Ran> {
  const args = host === "claude-code"
    ? ["-p", prompt, "--output-format", "json", "--allowedTools", "mcp__unfold"]
    : host === "codex"
    ? ["exec", "--skip-git-repo-check", prompt]
    : ["-p", prompt];
  return run(
    await hostBin(host),
    [...args, ...options.args ?? []],
    box,
    options.env,
    options.timeoutMs,
  );
}

/**
 * The reference servers of `examples/gateway/mcp.json` (server-everything, server-filesystem on a
 * folder of the sandbox, server-memory), as a host's entries.
 *
 * @param box The sandbox.
 * @returns The entries by name.
 */
export async function referenceServers(box: Sandbox): Promise<Record<string, ServerEntry>> {
  const example = JSON.parse(await Deno.readTextFile(join(ROOT, "examples/gateway/mcp.json")));
  const files = join(box.home, "files");
  await Deno.mkdir(files, { recursive: true });
  await Deno.writeTextFile(join(files, "notes.txt"), "hello from the host test\n");
  const servers: Record<string, ServerEntry> = {};
  for (const [name, raw] of Object.entries(example.mcpServers)) {
    const entry = raw as ServerEntry;
    servers[name] = {
      command: Deno.execPath(),
      args: entry.args.map((arg) => arg.replace("${CONFIG_DIR}", files)),
      ...(entry.env === undefined ? {} : {
        env: Object.fromEntries(
          Object.entries(entry.env).map(([k, v]) => [k, v.replace("${TMPDIR:-/tmp}", box.home)]),
        ),
      }),
    };
  }
  return servers;
}
