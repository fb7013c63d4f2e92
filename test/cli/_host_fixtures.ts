/**
 * Each host's config file as its documentation shows it, around the given servers: the host's
 * own settings beside them, comments where the format has them, stdio servers with `env` and a
 * Streamable HTTP server with headers, in the host's own words (`serverUrl`, `httpUrl`,
 * `type`, `[mcp_servers.NAME.env]`, `${env:VAR}`).
 *
 * @module
 */

import { tomlText as stringify } from "../../src/cli/hosts/files.ts";

/** A stdio server. */
export interface StdioServer {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The servers a fixture holds: stdio ones by name, and one HTTP server. */
export interface FixtureServers {
  stdio: Record<string, StdioServer>;
  http: { name: string; url: string; token: string };
}

/** A host's file: its name and text, and a line of it outside the servers that must survive. */
export interface HostFixture {
  file: string;
  text: string;
  kept?: string;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function typed(servers: Record<string, StdioServer>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [name, { type: "stdio", ...server }]),
  );
}

/**
 * The fixture of one host.
 *
 * @param host The host's name.
 * @param servers What it holds.
 * @returns Its file.
 */
export function hostFixture(host: string, servers: FixtureServers): HostFixture {
  const { stdio, http } = servers;
  const bearer = { Authorization: `Bearer ${http.token}` };
  switch (host) {
    case "claude-desktop":
      return {
        file: "claude_desktop_config.json",
        text: json({
          globalShortcut: "Alt+Space",
          mcpServers: { ...stdio, [http.name]: { url: http.url, headers: bearer } },
          preferences: { menuBarEnabled: false },
        }),
      };
    case "claude-code":
      return {
        file: ".claude.json",
        text: json({
          numStartups: 12,
          projects: { "/home/ada/app": { mcpServers: {}, allowedTools: [] } },
          mcpServers: {
            ...typed(stdio),
            [http.name]: { type: "http", url: http.url, headers: bearer },
          },
        }),
      };
    case "cursor":
      return {
        file: "mcp.json",
        text: json({ mcpServers: { ...stdio, [http.name]: { url: http.url, headers: bearer } } }),
      };
    case "vscode": {
      const entries = Object.entries(typed(stdio)).map(([name, entry]) =>
        `    ${JSON.stringify(name)}: ${JSON.stringify(entry)},`
      );
      return {
        file: "mcp.json",
        kept: "// Servers for Copilot's agent mode.",
        text: `// Servers for Copilot's agent mode.
{
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "API key", "password": true },
  ],
  "servers": {
${entries.join("\n")}
    // A remote one.
    ${JSON.stringify(http.name)}: {
      "type": "http",
      "url": ${JSON.stringify(http.url)},
      "headers": { "Authorization": "Bearer \${env:UNFOLD_FIXTURE_TOKEN}" },
    },
  },
}
`,
      };
    }
    case "windsurf":
      return {
        file: "mcp_config.json",
        text: json({
          mcpServers: {
            ...Object.fromEntries(
              Object.entries(stdio).map(([name, s]) => [name, { ...s, disabled: false }]),
            ),
            [http.name]: { serverUrl: http.url, headers: bearer },
          },
        }),
      };
    case "codex":
      return {
        file: "config.toml",
        kept: "# The model Codex uses.",
        text: `# The model Codex uses.
model = "o3"
approval_policy = "on-request"

${stringify({ mcp_servers: stdio })}

# A remote one, its token from the environment.
[mcp_servers.${http.name}]
url = ${JSON.stringify(http.url)}
bearer_token_env_var = "UNFOLD_FIXTURE_TOKEN"
startup_timeout_sec = 20

# Kept: a profile of Codex's own.
[profiles.fast]
model = "o4-mini"
`,
      };
    case "gemini":
      return {
        file: "settings.json",
        text: json({
          theme: "Dracula",
          selectedAuthType: "gemini-api-key",
          mcpServers: {
            ...Object.fromEntries(
              Object.entries(stdio).map((
                [name, s],
              ) => [name, { ...s, timeout: 30000, trust: false }]),
            ),
            [http.name]: { httpUrl: http.url, headers: bearer },
          },
        }),
      };
    default:
      throw new TypeError(`No fixture for ${host}`);
  }
}
