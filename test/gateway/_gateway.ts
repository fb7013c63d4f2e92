/**
 * The gateway as the tests run it: a config over the real npm servers (and the lab fixture), the
 * CLI started over stdio or Streamable HTTP, and the SDK client connected to it.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { denoEnv, npmServer } from "../mcp/_servers.ts";
import { ChildLog, spawnLogged } from "../_deno.ts";
import { RUN_FLAGS } from "../../src/cli/run_flags.ts";

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const isV8Flag = (flag: string) => flag.startsWith("--v8-flags=");
const LAB = new URL("./_fixtures/lab_server.ts", import.meta.url).pathname;

// Restarts far beyond a test's length, so that what a test sees of a lost upstream is not a race
// with its restart (the chaos suite tests restarts). The tests expect all three npm servers: the
// startup wait is what a loaded machine may need to start them (five seconds was not always enough
// with four test files at once); a start that goes well ends as soon as they are up.
const TIMING = { restartDelayMs: 600_000, restartMaxDelayMs: 600_000, startupTimeoutMs: 30_000 };

/** The upstreams of a test config. */
export interface Upstreams {
  /** server-everything over Streamable HTTP, when one runs. */
  remoteUrl?: string;
  /** Whether to add the lab fixture (named "lab"). */
  lab?: boolean;
  /** Whether to add an upstream whose command does not exist (named "broken"). */
  broken?: boolean;
  /** Headers for the remote upstream. */
  remoteHeaders?: Record<string, string>;
  /** The `unfold` block. */
  unfold?: Record<string, unknown>;
}

/**
 * Writes a gateway config over server-everything, server-filesystem and server-memory (stdio),
 * plus the requested extras, in a fresh temporary directory.
 *
 * @param upstreams The extras.
 * @returns The config's path and its directory.
 */
export async function writeConfig(
  upstreams: Upstreams = {},
): Promise<{ path: string; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-gateway-" });
  await Deno.writeTextFile(`${dir}/notes.txt`, "hello from the gateway test\n");
  const env = denoEnv();
  const servers: Record<string, unknown> = {
    everything: { ...npmServer("@modelcontextprotocol/server-everything", "stdio"), env },
    filesystem: { ...npmServer("@modelcontextprotocol/server-filesystem", dir), env },
    memory: {
      ...npmServer("@modelcontextprotocol/server-memory"),
      env: { ...env, MEMORY_FILE_PATH: `${dir}/memory.jsonl` },
    },
  };
  if (upstreams.lab) {
    servers.lab = {
      command: Deno.execPath(),
      args: ["run", "-A", "--quiet", "--config", CONFIG, LAB],
      env,
    };
  }
  if (upstreams.broken) servers.broken = { command: "/no/such/mcp-server" };
  if (upstreams.remoteUrl !== undefined) {
    servers.remote = { url: upstreams.remoteUrl, headers: upstreams.remoteHeaders ?? {} };
  }
  const path = `${dir}/mcp.json`;
  await Deno.writeTextFile(
    path,
    // A lost upstream stays lost for the length of a test unless the test says otherwise.
    JSON.stringify({ mcpServers: servers, unfold: { ...TIMING, ...upstreams.unfold } }, null, 2),
  );
  return { path, dir };
}

/** The command that runs the CLI. */
export function cliCommand(...args: string[]): { command: string; args: string[] } {
  return {
    command: Deno.execPath(),
    // V8 as the CLI runs everywhere (`RUN_FLAGS`): the benches measure the gateway users run.
    args: ["run", "-A", "--quiet", ...RUN_FLAGS.filter(isV8Flag), "--config", CONFIG, CLI, ...args],
  };
}

/** What a CLI run to its end wrote, and its exit code. */
export interface CliRun {
  /** The exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/**
 * Runs the CLI to its end with no input.
 *
 * @param args The CLI's arguments.
 * @param env Its whole environment (the test's Deno environment by default).
 * @returns Its exit code and what it wrote.
 */
export async function runCli(
  args: readonly string[],
  env: Record<string, string> = denoEnv(),
): Promise<CliRun> {
  const { command, args: full } = cliCommand(...args);
  const output = await new Deno.Command(command, { args: full, env, stdin: "null" }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/**
 * Connects the SDK client to the gateway over stdio (the CLI as a child process).
 *
 * @param config The config's path.
 * @returns The client; closing it stops the gateway.
 */
export async function stdioClient(config: string): Promise<Client> {
  const { command, args } = cliCommand("gateway", "--config", config);
  const client = new Client({ name: "gateway-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command, args, env: denoEnv(), stderr: "ignore" }),
  );
  return client;
}

/** A gateway serving Streamable HTTP. */
export interface HttpGateway extends AsyncDisposable {
  /** Its `/mcp` URL. */
  url: string;
  /** Its stderr: each upstream's state as it changes, kept and waited on. */
  log: ChildLog;
  /** Stops it. */
  stop(): Promise<void>;
}

/**
 * Starts the gateway with `--http --port 0` and waits for the line that gives its URL.
 *
 * @param config The config's path.
 * @param env Extra environment (`UNFOLD_API_TOKEN`).
 * @param extra Extra arguments (`--profile NAME`).
 * @returns The running gateway.
 */
export async function startHttpGateway(
  config: string,
  env: Record<string, string> = {},
  extra: readonly string[] = [],
): Promise<HttpGateway> {
  const { command, args } = cliCommand(
    "gateway",
    "--config",
    config,
    "--http",
    "--port",
    "0",
    ...extra,
  );
  const { child, lines } = spawnLogged(command, args, { ...denoEnv(), ...env });
  let seen = "";
  let url: string | undefined;
  while (url === undefined) {
    const { value, done } = await lines.read();
    if (done) {
      await child.status;
      throw new Error(`the gateway exited before listening: ${seen}`);
    }
    seen += value;
    url = /tools at (http:\/\/\S+\/mcp)/.exec(seen)?.[1];
  }
  const log = new ChildLog(lines, seen);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    stopped ??= (async () => {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await log.ended;
    })();
  return { url, log, stop, [Symbol.asyncDispose]: stop };
}

/**
 * Connects the SDK client to a gateway over Streamable HTTP.
 *
 * @param url The `/mcp` URL.
 * @param headers Headers for every request.
 * @returns The client.
 */
export async function httpClient(
  url: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: "gateway-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
}
