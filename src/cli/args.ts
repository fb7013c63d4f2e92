/**
 * The `unfold` command line read into its command and options by `node:util`'s `parseArgs`; a
 * mistake is one line that says what to give instead. Every command's usage and help come from the
 * one table below.
 *
 * @module
 */

import { parseArgs as parseNodeArgs } from "node:util";
import { closest } from "../gateway/profiles.ts";
import { VERSION } from "../version.ts";

interface OptionSpec {
  type: "string" | "boolean";
  /** The value's placeholder in the help, for a string option. */
  value?: string;
  help: string;
}

const OPTIONS = {
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
  file: {
    type: "string",
    value: "PATH",
    help: "the host's config file (default: its usual place)",
  },
  "dry-run": { type: "boolean", help: "print the changes to both files and write nothing" },
  undo: { type: "boolean", help: "restore the host's file from the backup setup kept" },
  help: { type: "boolean", help: "print this help" },
} as const satisfies Record<string, OptionSpec>;

type OptionName = keyof typeof OPTIONS;

interface CommandSpec {
  usage: string;
  summary: string;
  options: readonly OptionName[];
}

/** Each command: its usage line, what it does, its options (the help and the parser read these). */
const COMMANDS = {
  setup: {
    usage: "unfold setup HOST [--file PATH] [--config FILE] [--dry-run | --undo]",
    summary: "move a host's MCP servers behind unfold (hosts: claude-desktop, claude-code, " +
      "cursor, vscode, windsurf, codex, gemini)",
    options: ["file", "config", "dry-run", "undo"],
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
    usage: "unfold approve [--config FILE] (SERVER/TOOL ... | --all)",
    summary: "approve tool definitions (trust: notify or pin)",
    options: ["config", "all"],
  },
  search: {
    usage: 'unfold search [--config FILE] [--limit N] [--json] "WORDS"',
    summary: "show what the model would find for a search",
    options: ["config", "limit", "json"],
  },
  login: {
    usage: "unfold login [--config FILE] SERVER [--no-browser] [--timeout SECONDS]",
    summary: "sign in to a remote server that asks for OAuth",
    options: ["config", "no-browser", "timeout"],
  },
  help: {
    usage: "unfold help [COMMAND]",
    summary: "print the help of unfold or of one command",
    options: [],
  },
} as const satisfies Record<string, CommandSpec>;

type CommandName = keyof typeof COMMANDS;

// How each command is called.
const USAGE = `Usage:\n${
  Object.values(COMMANDS).map((c) => `  ${c.usage}`).join("\n")
}\n  unfold --version\nRun unfold help COMMAND for a command's options.`;

/** `unfold --help`: what unfold is, its commands and where to start. */
export const HELP =
  `unfold ${VERSION}: progressive MCP tool injection, one MCP server in front of yours.

${USAGE.replace(/\nRun unfold help.*$/, "")}

Commands:
${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`).join("\n")}

Start with unfold setup HOST (e.g. unfold setup claude-desktop), then unfold inspect.
Run unfold help COMMAND (or unfold COMMAND --help) for a command's options.`;

function commandHelp(name: CommandName): string {
  const spec: CommandSpec = COMMANDS[name];
  const rows = [...spec.options, "help" as const].map((option) => {
    const o: OptionSpec = OPTIONS[option];
    return [`--${option}${o.value === undefined ? "" : ` ${o.value}`}`, o.help];
  });
  const width = Math.max(...rows.map(([flag]) => flag!.length));
  return `Usage: ${spec.usage}\n\n${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.\n\n` +
    `Options:\n${rows.map(([flag, help]) => `  ${flag!.padEnd(width)}  ${help}`).join("\n")}`;
}

/** Parsed command-line arguments. */
export interface Args {
  /** `gateway`, `inspect`, `approve`, `search`, `login`, `setup`, or `help` and `version` (print
   * {@linkcode Args.text} and exit 0). */
  command: string;
  /** What `help` and `version` print. */
  text?: string;
  /** `--config FILE`, else the default given to {@linkcode parseArgs}. */
  config: string;
  /** Whether `--config` was given (else {@linkcode Args.config} is the default). */
  configGiven: boolean;
  /** `--http`: serve Streamable HTTP instead of stdio. */
  http: boolean;
  /** `--port N`. @default {8788} */
  port: number;
  /** `--host H`. @default {"127.0.0.1"} */
  host: string;
  /** `--json`. */
  json: boolean;
  /** `--limit N` of `search`. @default {10} */
  limit: number;
  /** The words after the options: `search`'s query, `login`'s server, `approve`'s ids, `setup`'s
   * host. */
  words: string[];
  /** Not `--no-browser`. */
  browser: boolean;
  /** `--timeout SECONDS` of `login`. */
  timeoutSeconds?: number;
  /** `--profile NAME`. */
  profile?: string;
  /** `--all` of `approve`. */
  all: boolean;
  /** `--file PATH` of `setup`: the host's file. */
  file?: string;
  /** `--dry-run` of `setup`. */
  dryRun: boolean;
  /** `--undo` of `setup`. */
  undo: boolean;
}

/**
 * Parses the command line.
 *
 * @param argv The arguments after the program.
 * @param defaultConfig The config when `--config` is not given (unfold's own); `""` when there is
 *   none, which makes `--config` required.
 * @returns The arguments, or the usage mistake in one line and the command's usage line.
 *
 * @example Usage
 * ```ts
 * import { parseArgs } from "./args.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * equal(parseArgs(["gateway", "--config", "mcp.json", "--http", "--port", "0"]).ok, true);
 * deepEqual(parseArgs(["gateway", "--config", "mcp.json", "--port", "9000"]), {
 *   ok: false,
 *   error: "--port needs --http (without it the gateway serves stdio)",
 *   usage: "Usage: unfold gateway [--config FILE] [--profile NAME] [--http [--port N] [--host H]]",
 * });
 * ```
 */
export function parseArgs(
  argv: readonly string[],
  defaultConfig = "",
): { ok: true; value: Args } | { ok: false; error: string; usage: string } {
  try {
    return { ok: true, value: parse(argv, defaultConfig) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const command = argv[0] ?? "";
    const usage = Object.hasOwn(COMMANDS, command)
      ? `Usage: ${COMMANDS[command as CommandName].usage}`
      : "Run unfold --help for the commands.";
    return { ok: false, error: error.message, usage };
  }
}

function parse(argv: readonly string[], defaultConfig: string): Args {
  const args: Args = {
    command: argv[0] ?? "",
    config: defaultConfig,
    configGiven: false,
    http: false,
    port: 8788,
    host: "127.0.0.1",
    json: false,
    limit: 10,
    words: [],
    browser: true,
    all: false,
    dryRun: false,
    undo: false,
  };
  const first = argv[0] ?? "";
  if (first === "--version" || first === "-V") {
    return { ...args, command: "version", text: VERSION };
  }
  if (first === "--help" || first === "-h") return { ...args, command: "help", text: HELP };
  if (!Object.hasOwn(COMMANDS, first)) {
    throw new UsageError(
      first === "" ? "no command" : `unknown command ${first}${closest(first, commandNames())}`,
    );
  }
  const name = first as CommandName;
  const spec: CommandSpec = COMMANDS[name];
  const values = readOptions(name, spec, argv.slice(1), args.words);
  if (values.help === true) return { ...args, command: "help", text: commandHelp(name) };
  if (name === "help") return helpOf(args);
  const text = (option: OptionName) => values[option] as string | undefined;
  if (text("config") !== undefined) [args.config, args.configGiven] = [text("config")!, true];
  args.http = values.http === true;
  if (text("port") !== undefined) args.port = integer("--port", text("port")!, 0, MAX_PORT);
  if (text("host") !== undefined) args.host = text("host")!;
  args.json = values.json === true;
  if (text("limit") !== undefined) args.limit = integer("--limit", text("limit")!, 1);
  args.browser = values["no-browser"] !== true;
  if (text("timeout") !== undefined) {
    args.timeoutSeconds = integer("--timeout", text("timeout")!, 1);
  }
  if (text("profile") !== undefined) args.profile = text("profile")!;
  args.all = values.all === true;
  if (text("file") !== undefined) args.file = text("file")!;
  args.dryRun = values["dry-run"] === true;
  args.undo = values.undo === true;
  if (args.config === "") {
    throw new UsageError(
      "--config FILE is required (no default: set UNFOLD_CONFIG_DIR, XDG_CONFIG_HOME or HOME)",
    );
  }
  // Without --http the gateway speaks stdio: a port would be ignored, so it is refused.
  if (text("port") !== undefined && !(name === "gateway" && args.http)) {
    throw new UsageError("--port needs --http (without it the gateway serves stdio)");
  }
  if (name === "search" && args.words.join(" ").trim() === "") {
    throw new UsageError("search needs the words to search for");
  }
  if (name === "login" && args.words.length !== 1) {
    throw new UsageError("login needs one server name");
  }
  if (name === "approve" && args.all === (args.words.length > 0)) {
    throw new UsageError("approve needs the tool ids to approve, or --all (not both)");
  }
  if (name === "setup" && args.words.length !== 1) {
    throw new UsageError("setup needs one host name (unfold setup --help lists them)");
  }
  if (name === "setup" && args.dryRun && args.undo) {
    throw new UsageError("setup takes --dry-run or --undo, not both");
  }
  return args;
}

// `unfold help` and `unfold help COMMAND`.
function helpOf(args: Args): Args {
  const [topic, ...rest] = args.words;
  if (rest.length > 0) throw new UsageError("help takes one command name");
  if (topic === undefined) return { ...args, command: "help", text: HELP };
  if (!Object.hasOwn(COMMANDS, topic)) {
    throw new UsageError(`unknown command ${topic}${closest(topic, commandNames())}`);
  }
  return { ...args, command: "help", text: commandHelp(topic as CommandName) };
}

function commandNames(): string[] {
  return Object.keys(COMMANDS);
}

// The command's own options through node:util; its errors become one line of ours.
function readOptions(
  name: CommandName,
  spec: CommandSpec,
  argv: readonly string[],
  words: string[],
): Record<string, string | boolean | undefined> {
  const options = Object.fromEntries(
    [...spec.options, "help" as const].map((option) => [option, { type: OPTIONS[option].type }]),
  );
  try {
    const parsed = parseNodeArgs({
      args: [...argv],
      options,
      allowPositionals: true,
      strict: true,
    });
    words.push(...parsed.positionals);
    return parsed.values as Record<string, string | boolean | undefined>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    const option = /'(--?[^' <]+)/.exec(message)?.[1] ?? "";
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const known = Object.keys(OPTIONS).filter((o) => Object.hasOwn(options, o));
      const other = Object.keys(OPTIONS).includes(option.replace(/^--/, ""));
      throw new UsageError(
        other
          ? `unfold ${name} takes no ${option}`
          : `unknown option ${option}${
            closest(option.replace(/^--/, ""), known).replace(/"([^"]+)"\?$/, '"--$1"?')
          }`,
      );
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      throw new UsageError(
        /does not take an argument/.test(message)
          ? `${option} takes no value`
          : `${option} needs a value`,
      );
    }
    throw new UsageError(message.split("\n")[0]!);
  }
}

class UsageError extends Error {}

// The largest TCP port.
const MAX_PORT = 65_535;

function integer(option: string, text: string, min: number, max?: number): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) {
    throw new UsageError(
      `${option} must be an integer ${
        max === undefined ? `of at least ${min}` : `from ${min} to ${max}`
      }, got ${text}`,
    );
  }
  return value;
}
