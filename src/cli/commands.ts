/**
 * The `unfold` commands and their options, declared once: the parser (`args.ts`), the usage line
 * after a mistake and the help all read this table.
 *
 * @module
 */

import { VERSION } from "../version.ts";
import { HOST_NAMES } from "./hosts/known.ts";

/** One option: its type, and its value's placeholder and line in the help. */
export interface OptionSpec {
  type: "string" | "boolean";
  /** The value's placeholder in the help, for a string option. */
  value?: string;
  help: string;
}

/** Every option, by its name after `--`. */
export const OPTIONS = {
  config: {
    type: "string",
    value: "FILE",
    help: "the mcpServers config (default: unfold's own, $UNFOLD_CONFIG_DIR/mcp.json, " +
      "else $XDG_CONFIG_HOME/unfold/mcp.json, else ~/.config/unfold/mcp.json)",
  },
  profile: { type: "string", value: "NAME", help: "only the servers of this profile" },
  http: { type: "boolean", help: "serve Streamable HTTP at /mcp instead of stdio" },
  port: { type: "string", value: "N", help: "the HTTP port; 0 takes any free one (default 8788)" },
  host: { type: "string", value: "H", help: "the address to listen on (default 127.0.0.1)" },
  json: { type: "boolean", help: "print JSON" },
  limit: { type: "string", value: "N", help: "how many tools to print (default 10)" },
  all: { type: "boolean", help: "approve every tool listed now" },
  "no-browser": { type: "boolean", help: "print the sign-in URL instead of opening a browser" },
  timeout: { type: "string", value: "SECONDS", help: "how long to wait for the sign-in" },
  "callback-port": {
    type: "string",
    value: "N",
    help: "the loopback port the browser comes back to (default: any free one)",
  },
  file: {
    type: "string",
    value: "PATH",
    help: "the host's config file (default: its usual place)",
  },
  scope: {
    type: "string",
    value: "SCOPE",
    help: "one place of the host's: user, local, project or workspace (default: every place " +
      "the host reads servers from in this folder)",
  },
  "dry-run": {
    type: "boolean",
    help: "print what would change (setup: every place that holds servers, and each file's " +
      "change, or with --undo what undo would do; approve: what would be approved), write nothing",
  },
  undo: {
    type: "boolean",
    help: "undo what setup changed, keeping whatever was written since (with --file or " +
      "--scope: that file's or scope's change alone)",
  },
  help: { type: "boolean", help: "print this help" },
} as const satisfies Record<string, OptionSpec>;

/** An option's name. */
export type OptionName = keyof typeof OPTIONS;

/** One command: its usage line, what it does, its options. */
export interface CommandSpec {
  usage: string;
  summary: string;
  options: readonly OptionName[];
}

/** Each command: its usage line, what it does, its options (the help and the parser read these). */
export const COMMANDS = {
  setup: {
    usage: "unfold setup HOST [--scope SCOPE | --file PATH] [--config FILE] [--undo] [--dry-run]",
    summary: `move a host's MCP servers behind unfold (hosts: ${HOST_NAMES.join(", ")})`,
    options: ["file", "scope", "config", "dry-run", "undo"],
  },
  gateway: {
    usage: "unfold gateway [--config FILE] [--profile NAME] [--http [--port N] [--host H]]",
    summary: "serve the config's servers as one MCP server (stdio, or HTTP with --http)",
    options: ["config", "profile", "http", "port", "host"],
  },
  inspect: {
    usage: "unfold inspect [--config FILE] [--profile NAME] [--json]",
    summary: "show each server's state, what its tools cost and what unfold saves",
    options: ["config", "profile", "json"],
  },
  approve: {
    usage: "unfold approve [--config FILE] [--profile NAME] (SERVER/TOOL ... | --all) [--dry-run]",
    summary: "approve tool definitions (trust: notify or pin)",
    options: ["config", "profile", "all", "dry-run"],
  },
  search: {
    usage: 'unfold search [--config FILE] [--profile NAME] [--limit N] [--json] "WORDS"',
    summary: "show what the model would find for a search",
    options: ["config", "profile", "limit", "json"],
  },
  forget: {
    usage: "unfold forget [--profile NAME]",
    summary: "forget what search learned from the tools you ran (every profile's, or one's)",
    options: ["profile"],
  },
  login: {
    usage:
      "unfold login [--config FILE] SERVER [--no-browser] [--timeout SECONDS] [--callback-port N]",
    summary: "sign in to a remote server that asks for OAuth",
    options: ["config", "no-browser", "timeout", "callback-port"],
  },
  help: {
    usage: "unfold help [COMMAND]",
    summary: "print the help of unfold or of one command",
    options: [],
  },
} as const satisfies Record<string, CommandSpec>;

/** A command's name. */
export type CommandName = keyof typeof COMMANDS;

// How each command is called.
const USAGE = `Usage:\n${
  Object.values(COMMANDS).map((c) => `  ${c.usage}`).join("\n")
}\n  unfold --version`;

/** `unfold --help`: what unfold is, its commands and where to start. */
export const HELP: string =
  `unfold ${VERSION}: progressive MCP tool injection, one MCP server in front of yours.

${USAGE}

Commands:
${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`).join("\n")}

Start with \`unfold setup HOST\` (e.g. \`unfold setup claude-desktop\`), then \`unfold inspect\`.
Run \`unfold help COMMAND\` (or \`unfold COMMAND --help\`) for a command's options.`;

/**
 * `unfold help COMMAND`: its usage, what it does, each option.
 *
 * @param name The command.
 * @returns The help.
 */
export function commandHelp(name: CommandName): string {
  const spec: CommandSpec = COMMANDS[name];
  const rows = [...spec.options, "help" as const].map((option) => {
    const o: OptionSpec = OPTIONS[option];
    return [`--${option}${o.value === undefined ? "" : ` ${o.value}`}`, o.help];
  });
  const width = Math.max(...rows.map(([flag]) => flag!.length));
  return `Usage: ${spec.usage}\n\n${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.\n\n` +
    `Options:\n${rows.map(([flag, help]) => `  ${flag!.padEnd(width)}  ${help}`).join("\n")}`;
}
