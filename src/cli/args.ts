/**
 * The `unfold` command line read into its command and options; a mistake is one line that says
 * what to give instead.
 *
 * @module
 */

/** How each command is called: printed after a usage error. */
export const USAGE = `Usage:
  unfold gateway --config FILE [--profile NAME] [--http [--port N] [--host H]]
  unfold inspect --config FILE [--profile NAME] [--json]
  unfold approve --config FILE (server/tool ... | --all) [--dry-run]
  unfold search --config FILE [--limit N] [--json] "words"
  unfold login --config FILE SERVER [--no-browser] [--timeout SECONDS]`;

/** Parsed command-line arguments. */
export interface Args {
  /** `gateway`, `inspect`, `approve`, `search` or `login`. */
  command: string;
  /** `--config FILE`. */
  config: string;
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
  /** The words after the options: `search`'s query, `login`'s server, `approve`'s ids. */
  words: string[];
  /** Not `--no-browser`. */
  browser: boolean;
  /** `--timeout SECONDS` of `login`. */
  timeoutSeconds?: number;
  /** `--profile NAME`. */
  profile?: string;
  /** `--all` of `approve`. */
  all: boolean;
  /** `--dry-run` of `approve`: print what would be approved, write nothing. */
  dryRun?: boolean;
}

/**
 * Parses the command line.
 *
 * @param argv The arguments after the program.
 * @returns The arguments, or the usage mistake in one line (the caller adds {@linkcode USAGE}).
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
 * });
 * ```
 */
export function parseArgs(
  argv: readonly string[],
): { ok: true; value: Args } | { ok: false; error: string } {
  try {
    return { ok: true, value: parse(argv) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { ok: false, error: error.message };
  }
}

function parse(argv: readonly string[]): Args {
  const args: Args = {
    command: argv[0] ?? "",
    config: "",
    http: false,
    port: 8788,
    host: "127.0.0.1",
    json: false,
    limit: 10,
    words: [],
    browser: true,
    all: false,
  };
  let portGiven = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === "--config") args.config = value();
    else if (arg === "--http") args.http = true;
    else if (arg === "--port") {
      args.port = integer(arg, value(), 0, MAX_PORT);
      portGiven = true;
    } else if (arg === "--host") args.host = value();
    else if (arg === "--json") args.json = true;
    else if (arg === "--limit") args.limit = integer(arg, value(), 1);
    else if (arg === "--no-browser") args.browser = false;
    else if (arg === "--timeout") args.timeoutSeconds = integer(arg, value(), 1);
    else if (arg === "--profile") args.profile = value();
    else if (arg === "--all") args.all = true;
    else if (arg === "--dry-run") args.dryRun = true;
    else if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
    else args.words.push(arg);
  }
  if (!["gateway", "inspect", "search", "login", "approve"].includes(args.command)) {
    throw new UsageError(args.command === "" ? "no command" : `unknown command ${args.command}`);
  }
  if (args.config === "") throw new UsageError("--config FILE is required");
  // Without --http the gateway speaks stdio: a port would be ignored, so it is refused.
  if (portGiven && !(args.command === "gateway" && args.http)) {
    throw new UsageError("--port needs --http (without it the gateway serves stdio)");
  }
  if (args.command === "search" && args.words.join(" ").trim() === "") {
    throw new UsageError("search needs the words to search for");
  }
  if (args.command === "login" && args.words.length !== 1) {
    throw new UsageError("login needs one server name");
  }
  if (args.command === "approve" && args.all === (args.words.length > 0)) {
    throw new UsageError("approve needs the tool ids to approve, or --all (not both)");
  }
  return args;
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
