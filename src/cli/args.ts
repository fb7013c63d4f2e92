/**
 * The `unfold` command line read into its command and options by `node:util`'s `parseArgs`; a
 * mistake is one line that says what to give instead. The commands and their options are the
 * table in `commands.ts`.
 *
 * @module
 */

import { parseArgs as parseNodeArgs } from "node:util";
import { closest } from "../gateway/config/profiles.ts";
import { VERSION } from "../version.ts";
import {
  commandHelp,
  type CommandName,
  COMMANDS,
  type CommandSpec,
  HELP,
  type OptionName,
  OPTIONS,
} from "./commands.ts";

/** Parsed command-line arguments. */
export interface Args {
  /** `gateway`, `inspect`, `approve`, `search`, `login`, `setup`, `forget`, or `help` and `version` (print
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
  /** `--callback-port N` of `login`. */
  callbackPort?: number;
  /** `--profile NAME`. */
  profile?: string;
  /** `--all` of `approve`. */
  all: boolean;
  /** `--file PATH` of `setup`: the host's file. */
  file?: string;
  /** `--scope SCOPE` of `setup`: one place of the host's. */
  scope?: string;
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
      : "Run `unfold --help` for the commands.";
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
  if (text("callback-port") !== undefined) {
    args.callbackPort = integer("--callback-port", text("callback-port")!, 0, MAX_PORT);
  }
  if (text("profile") !== undefined) args.profile = text("profile")!;
  args.all = values.all === true;
  if (text("file") !== undefined) args.file = text("file")!;
  if (text("scope") !== undefined) args.scope = text("scope")!;
  args.dryRun = values["dry-run"] === true;
  args.undo = values.undo === true;
  // `forget` reads the cache only.
  if (args.config === "" && name !== "forget") {
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
    throw new UsageError("setup needs one host name (`unfold setup --help` lists them)");
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
