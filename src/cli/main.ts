/**
 * The `unfold` command (Deno): `gateway` serves the upstreams of an `mcpServers` config as one MCP
 * server (stdio, or Streamable HTTP with `--http`), `inspect` reports what they cost and what
 * unfold saves, `search` shows what the model would find. Logs go to stderr only.
 *
 * ```sh
 * deno task unfold gateway --config mcp.json
 * deno task unfold gateway --config mcp.json --http --port 8788
 * deno task unfold inspect --config mcp.json [--json]
 * deno task unfold search --config mcp.json "create an issue" [--limit 10] [--json]
 * deno task unfold login --config mcp.json github [--no-browser]
 * ```
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { GatewayConfigError, parseGatewayConfig } from "../gateway/config.ts";
import { Gateway } from "../gateway/gateway.ts";
import { guardMcp } from "../gateway/http.ts";
import { openLivePool, type UpstreamStatus } from "../gateway/upstreams.ts";
import { settingsFromEnv } from "../http/settings.ts";
import { createMcpHttpHandler } from "../mcp/server.ts";
import { serveHostStdio } from "../mcp/server_stdio.ts";
import { MemorySessionStore } from "../session/memory_store.ts";
import { VERSION } from "../version.ts";
import { denoConnector } from "./connector.ts";
import { formatReport, inspectCatalog } from "./inspect.ts";
import { login } from "./login.ts";
import { gatewayHost } from "../gateway/host.ts";

const USAGE = `Usage:
  unfold gateway --config FILE [--http [--port N] [--host H]]
  unfold inspect --config FILE [--json]
  unfold search --config FILE [--limit N] [--json] "words"
  unfold login --config FILE SERVER [--no-browser] [--timeout SECONDS]`;

/** Parsed command-line arguments. */
interface Args {
  command: string;
  config: string;
  http: boolean;
  port: number;
  host: string;
  json: boolean;
  limit: number;
  words: string[];
  browser: boolean;
  timeoutSeconds?: number;
}

function parseArgs(argv: readonly string[]): Args {
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
  };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === "--config") args.config = value();
    else if (arg === "--http") args.http = true;
    else if (arg === "--port") args.port = integer(arg, value(), 0);
    else if (arg === "--host") args.host = value();
    else if (arg === "--json") args.json = true;
    else if (arg === "--limit") args.limit = integer(arg, value(), 1);
    else if (arg === "--no-browser") args.browser = false;
    else if (arg === "--timeout") args.timeoutSeconds = integer(arg, value(), 1);
    else if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
    else args.words.push(arg);
  }
  if (!["gateway", "inspect", "search", "login"].includes(args.command)) {
    throw new UsageError(args.command === "" ? "no command" : `unknown command ${args.command}`);
  }
  if (args.config === "") throw new UsageError("--config FILE is required");
  if (args.command === "search" && args.words.join(" ").trim() === "") {
    throw new UsageError("search needs the words to search for");
  }
  if (args.command === "login" && args.words.length !== 1) {
    throw new UsageError("login needs one server name");
  }
  return args;
}

class UsageError extends Error {}

function integer(option: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`${option} must be an integer of at least ${min}, got ${text}`);
  }
  return value;
}

function log(line: string): void {
  console.error(`unfold: ${line}`);
}

function describe(status: UpstreamStatus): string {
  return status.state === "ready"
    ? `${status.server}: ready, ${status.tools} tools`
    : `${status.server}: ${status.state} (${status.detail ?? ""})`;
}

async function main(argv: readonly string[]): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`unfold: ${e.message}\n${USAGE}`);
    return 2;
  }
  const env = Deno.env.toObject();
  let config;
  try {
    config = parseGatewayConfig(await Deno.readTextFile(args.config), env);
  } catch (e) {
    if (e instanceof GatewayConfigError) {
      console.error(`unfold: ${args.config}: ${e.message}`);
      return 1;
    }
    if (e instanceof Deno.errors.NotFound) {
      console.error(`unfold: cannot read the config ${JSON.stringify(args.config)}: no such file`);
      return 1;
    }
    throw e;
  }
  if (args.command === "login") {
    const result = await login({
      config,
      configPath: args.config,
      server: args.words[0]!,
      browser: args.browser,
      ...(args.timeoutSeconds === undefined ? {} : { timeoutMs: args.timeoutSeconds * 1000 }),
      env,
      print: (line) => console.error(line),
    });
    if (result.ok) console.log(result.value);
    else console.error(`unfold: ${result.error}`);
    return result.ok ? 0 : 1;
  }
  const quiet = args.command !== "gateway";
  const pool = await openLivePool(
    config.servers,
    denoConnector((server, line) => quiet ? undefined : log(`[${server}] ${line}`), {
      env,
      configPath: args.config,
    }),
    {
      connect: { onToolIssue: (issue) => log(`${issue.server}/${issue.name} ${issue.problem}`) },
      onProgress: (status) => log(describe(status)),
    },
  );
  const settings = settingsFromEnv(env);
  const store = new MemorySessionStore({
    ttlSeconds: settings.sessionTtlSeconds,
    maxSessions: settings.maxSessions,
  });
  const gateway = await Gateway.open(pool, { options: config.options, store });
  if (args.command === "inspect") {
    const report = inspectCatalog(gateway.catalog, gateway.statuses(), config.options);
    console.log(args.json ? JSON.stringify(report, null, 2) : formatReport(report));
    await gateway.close();
    return 0;
  }
  if (args.command === "search") {
    const matches = gateway.catalog.search(args.words.join(" "), args.limit);
    if (args.json) console.log(JSON.stringify(matches, null, 2));
    else for (const m of matches) console.log(`${m.score.toFixed(3)}  ${m.id}`);
    await gateway.close();
    return 0;
  }
  const host = gatewayHost(gateway, VERSION);
  if (!args.http) {
    const done = Promise.withResolvers<void>();
    serveHostStdio(host, { onError: (e) => log(e.message), onClose: () => done.resolve() });
    log(`serving ${gateway.catalog.size} tools over stdio`);
    await done.promise;
    await gateway.close();
    return 0;
  }
  const { handle, close } = createMcpHttpHandler(host, {
    sessions: { kind: "memory", maxSessions: settings.maxSessions },
    onError: (e) => log(e.message),
  });
  const guarded = guardMcp(handle, {
    tokens: settings.tokens,
    allowedOrigins: settings.allowedOrigins,
    loopbackOnly: ["127.0.0.1", "localhost", "::1"].includes(args.host),
  });
  const server = Deno.serve({
    port: args.port,
    hostname: args.host,
    onListen: ({ hostname, port }) => {
      const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
      log(`serving ${gateway.catalog.size} tools at http://${shown}:${port}/mcp`);
    },
  }, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/mcp") return guarded(request);
    return new Response("Not found: the MCP endpoint is /mcp\n", { status: 404 });
  });
  const stop = Promise.withResolvers<void>();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => stop.resolve());
  }
  await stop.promise;
  await close();
  await server.shutdown();
  await gateway.close();
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
