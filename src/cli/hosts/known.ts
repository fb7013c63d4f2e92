/**
 * The MCP hosts `unfold setup` knows and every place each keeps servers: its files on each OS,
 * the scopes in them (Claude Code's local scope is `projects[<project>].mcpServers` inside
 * `~/.claude.json`), the environment variables that move them (`CLAUDE_CONFIG_DIR`,
 * `GEMINI_CLI_HOME`, `CODEX_HOME`), and how its entry for unfold is written. Claude Code's,
 * Gemini CLI's and Codex's were read from the hosts' own programs (their `mcp add` and `mcp list`,
 * see docs/gateway.md#hosts); the others from their documentation.
 *
 * @module
 */

import { join, resolve } from "node:path";
import type { Pointer } from "./json_doc.ts";
import {
  type Approvals,
  claudeApprovals,
  codexTrusts,
  projectRoot,
  upwards,
} from "./project_dirs.ts";

/** The environment setup reads. */
export type Env = Readonly<Record<string, string | undefined>>;

/** One place a host keeps servers: a file, and the keys down to its servers' object. */
export interface Place {
  /** The scope's name, as `--scope` takes it (`user`, `local`, `project`, `workspace`). */
  scope: string;
  /** The file. */
  file: string;
  /** The keys down to the servers. */
  pointer: Pointer;
}

/** One host. */
export interface HostSpec {
  /** Its name for people. */
  label: string;
  /** Its user-wide config file, or `""` when the environment names no home. */
  path(env: Env, os: typeof Deno.build.os): string;
  /**
   * Every place it reads servers from when started in a folder, the one whose servers it prefers
   * first; places that would be no file are left out, except the user's file.
   */
  places(env: Env, os: typeof Deno.build.os, cwd: string): Place[];
  /** The scopes `--scope` takes for it, the preferred place for its entry first. */
  scopes: readonly string[];
  /** The key its servers are under at the top of a file. */
  serversKey: "mcpServers" | "servers" | "mcp_servers";
  /** The `type` its stdio entries carry, for hosts that write one. */
  stdioType?: string;
  /**
   * For a host that asks before it runs a project's servers: which it runs. The others move
   * disabled, so that unfold does not start what the host would not.
   */
  approvals?(env: Env, cwd: string): Approvals;
}

function home(env: Env): string {
  return env.HOME ?? env.USERPROFILE ?? "";
}

// A path under the home folder, or "" without one.
function underHome(env: Env, ...parts: string[]) {
  const dir = home(env);
  return dir === "" ? "" : join(dir, ...parts);
}

// The per-user application data folder: Application Support on macOS, %APPDATA% on Windows,
// $XDG_CONFIG_HOME (else ~/.config) elsewhere.
function appData(env: Env, os: typeof Deno.build.os, ...parts: string[]): string {
  if (os === "darwin") return underHome(env, "Library", "Application Support", ...parts);
  if (os === "windows") return env.APPDATA ? join(env.APPDATA, ...parts) : "";
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, ...parts);
  return underHome(env, ".config", ...parts);
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

// Claude Code's own file: `.config.json` in its folder when that exists (older installs), else
// `.claude.json` in `$CLAUDE_CONFIG_DIR`, else in the home folder (as Claude Code 2.1 finds it).
function claudeFile(env: Env): string {
  const dir = env.CLAUDE_CONFIG_DIR || underHome(env, ".claude");
  if (dir !== "" && exists(join(dir, ".config.json"))) return join(dir, ".config.json");
  const base = env.CLAUDE_CONFIG_DIR || home(env);
  return base === "" ? "" : join(base, ".claude.json");
}

function geminiFile(env: Env): string {
  const base = env.GEMINI_CLI_HOME || home(env);
  return base === "" ? "" : join(base, ".gemini", "settings.json");
}

function codexFile(env: Env): string {
  return env.CODEX_HOME
    ? join(env.CODEX_HOME, "config.toml")
    : underHome(env, ".codex", "config.toml");
}

// A project's file in the folder the host starts in, when it is there and is not the user's.
function projectFile(cwd: string, user: string, ...parts: string[]): Place[] {
  const file = join(cwd, ...parts);
  return exists(file) && resolve(file) !== resolve(user)
    ? [{ scope: "project", file, pointer: ["mcpServers"] }]
    : [];
}

const USER = (file: string, key: string): Place => ({ scope: "user", file, pointer: [key] });

/** The hosts, by the name `unfold setup` takes. */
export const HOSTS: Readonly<Record<string, HostSpec>> = {
  "claude-desktop": {
    label: "Claude Desktop",
    path: (env, os) => appData(env, os, "Claude", "claude_desktop_config.json"),
    places: (
      env,
      os,
    ) => [USER(appData(env, os, "Claude", "claude_desktop_config.json"), "mcpServers")],
    scopes: ["user"],
    serversKey: "mcpServers",
  },
  "claude-code": {
    label: "Claude Code",
    path: (env) => claudeFile(env),
    // Measured with Claude Code 2.1.197: a server of the local scope wins over the project's
    // and the user's of the same name; `.mcp.json` is read in every folder up from the start.
    places: (env, _os, cwd) => {
      const file = claudeFile(env);
      const local = { scope: "local", file, pointer: ["projects", projectRoot(cwd), "mcpServers"] };
      const project = upwards(cwd).map((dir) => join(dir, ".mcp.json")).filter(exists)
        .map((path) => ({ scope: "project", file: path, pointer: ["mcpServers"] }));
      return [local, ...project, USER(file, "mcpServers")];
    },
    scopes: ["user", "local", "project"],
    serversKey: "mcpServers",
    stdioType: "stdio",
    approvals: (env, cwd) =>
      claudeApprovals(claudeFile(env), env.CLAUDE_CONFIG_DIR || underHome(env, ".claude"), cwd),
  },
  cursor: {
    label: "Cursor",
    path: (env) => underHome(env, ".cursor", "mcp.json"),
    places: (env, _os, cwd) => {
      const user = underHome(env, ".cursor", "mcp.json");
      return [...projectFile(cwd, user, ".cursor", "mcp.json"), USER(user, "mcpServers")];
    },
    scopes: ["user", "project"],
    serversKey: "mcpServers",
  },
  vscode: {
    label: "VS Code",
    path: (env, os) => appData(env, os, "Code", "User", "mcp.json"),
    places: (env, os, cwd) => {
      const user = appData(env, os, "Code", "User", "mcp.json");
      const workspace = projectFile(cwd, user, ".vscode", "mcp.json")
        .map((p) => ({ ...p, scope: "workspace", pointer: ["servers"] }));
      return [...workspace, USER(user, "servers")];
    },
    scopes: ["user", "workspace"],
    serversKey: "servers",
    stdioType: "stdio",
  },
  windsurf: {
    label: "Windsurf",
    path: (env) => underHome(env, ".codeium", "windsurf", "mcp_config.json"),
    places: (
      env,
    ) => [USER(underHome(env, ".codeium", "windsurf", "mcp_config.json"), "mcpServers")],
    scopes: ["user"],
    serversKey: "mcpServers",
  },
  codex: {
    label: "Codex",
    path: (env) => codexFile(env),
    // Measured with Codex CLI 0.169: `.codex/config.toml` of each folder from the project's root
    // down to the start is read when the user's file trusts the project; the nearest wins.
    places: (env, _os, cwd) => {
      const user = codexFile(env);
      const root = projectRoot(cwd);
      const project = codexTrusts(user, root)
        ? upwards(cwd).filter((dir) => dir.startsWith(root)).map((dir) =>
          join(dir, ".codex", "config.toml")
        )
          .filter((path) => exists(path) && resolve(path) !== resolve(user))
          .map((path) => ({ scope: "project", file: path, pointer: ["mcp_servers"] }))
        : [];
      return [...project, USER(user, "mcp_servers")];
    },
    scopes: ["user", "project"],
    serversKey: "mcp_servers",
  },
  gemini: {
    label: "Gemini CLI",
    path: (env) => geminiFile(env),
    // Measured with Gemini CLI 0.61: the project's file is `.gemini/settings.json` of the folder
    // it starts in (not of the project's root), `mcp add`'s default.
    places: (env, _os, cwd) => {
      const user = geminiFile(env);
      return [...projectFile(cwd, user, ".gemini", "settings.json"), USER(user, "mcpServers")];
    },
    scopes: ["user", "project"],
    serversKey: "mcpServers",
  },
};

/** The names `unfold setup` takes, in the order the help lists them. */
export const HOST_NAMES: readonly string[] = Object.keys(HOSTS);

/**
 * A host's spec by its name (`Object.hasOwn`: `constructor` is no host).
 *
 * @param name The name.
 * @returns The spec, or `undefined`.
 */
export function hostSpec(name: string): HostSpec | undefined {
  return Object.hasOwn(HOSTS, name) ? HOSTS[name] : undefined;
}

/**
 * Where a place is, for messages.
 *
 * @param place The place.
 * @returns Its words: `~/.claude.json projects["/a"]`-like, the file and the keys above the servers.
 */
export function placeWords(place: Place): string {
  const above = place.pointer.slice(0, -1);
  return above.length === 0
    ? place.file
    : `${place.file} ${above.map((k, i) => (i === 0 ? k : `[${JSON.stringify(k)}]`)).join("")}`;
}
