/**
 * The MCP hosts `unfold setup` knows: where each keeps its servers on each OS (from the hosts'
 * own documentation; docs/gateway.md says which were checked against a running host), under
 * which key, and how its entry for unfold is written.
 *
 * @module
 */

import { join } from "node:path";

/** One host. */
export interface HostSpec {
  /** Its name for people. */
  label: string;
  /** Its user-wide config file, or `""` when the environment names no home. */
  path(env: Readonly<Record<string, string | undefined>>, os: typeof Deno.build.os): string;
  /** The key its servers are under. */
  serversKey: "mcpServers" | "servers" | "mcp_servers";
  /** The `type` its stdio entries carry, for hosts that write one. */
  stdioType?: string;
}

function home(env: Readonly<Record<string, string | undefined>>): string {
  return env.HOME ?? env.USERPROFILE ?? "";
}

// A path under the home folder, or "" without one.
function underHome(env: Readonly<Record<string, string | undefined>>, ...parts: string[]) {
  const dir = home(env);
  return dir === "" ? "" : join(dir, ...parts);
}

// The per-user application data folder: Application Support on macOS, %APPDATA% on Windows,
// $XDG_CONFIG_HOME (else ~/.config) elsewhere.
function appData(
  env: Readonly<Record<string, string | undefined>>,
  os: typeof Deno.build.os,
  ...parts: string[]
): string {
  if (os === "darwin") return underHome(env, "Library", "Application Support", ...parts);
  if (os === "windows") return env.APPDATA ? join(env.APPDATA, ...parts) : "";
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, ...parts);
  return underHome(env, ".config", ...parts);
}

/** The hosts, by the name `unfold setup` takes. */
export const HOSTS: Readonly<Record<string, HostSpec>> = {
  "claude-desktop": {
    label: "Claude Desktop",
    path: (env, os) => appData(env, os, "Claude", "claude_desktop_config.json"),
    serversKey: "mcpServers",
  },
  "claude-code": {
    label: "Claude Code",
    path: (env) => underHome(env, ".claude.json"),
    serversKey: "mcpServers",
    stdioType: "stdio",
  },
  cursor: {
    label: "Cursor",
    path: (env) => underHome(env, ".cursor", "mcp.json"),
    serversKey: "mcpServers",
  },
  vscode: {
    label: "VS Code",
    path: (env, os) => appData(env, os, "Code", "User", "mcp.json"),
    serversKey: "servers",
    stdioType: "stdio",
  },
  windsurf: {
    label: "Windsurf",
    path: (env) => underHome(env, ".codeium", "windsurf", "mcp_config.json"),
    serversKey: "mcpServers",
  },
  codex: {
    label: "Codex",
    path: (env) =>
      env.CODEX_HOME
        ? join(env.CODEX_HOME, "config.toml")
        : underHome(env, ".codex", "config.toml"),
    serversKey: "mcp_servers",
  },
  gemini: {
    label: "Gemini CLI",
    path: (env) => underHome(env, ".gemini", "settings.json"),
    serversKey: "mcpServers",
  },
};

/** The names `unfold setup` takes, in the order the help lists them. */
export const HOST_NAMES: readonly string[] = Object.keys(HOSTS);
