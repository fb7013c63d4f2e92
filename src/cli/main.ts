/**
 * The `unfold` command (Deno): `gateway` serves the upstreams of an `mcpServers` config as one MCP
 * server (stdio, or Streamable HTTP with `--http`), `inspect` reports what they cost and what
 * unfold saves, `search` shows what the model would find. Logs go to stderr only.
 *
 * ```sh
 * deno task unfold gateway --config mcp.json
 * deno task unfold gateway --config mcp.json --http --port 8788
 * deno task unfold gateway --config mcp.json --profile work
 * deno task unfold inspect --config mcp.json [--json] [--profile work]
 * deno task unfold approve --config mcp.json [server/tool …| --all]
 * deno task unfold search --config mcp.json "create an issue" [--limit 10] [--json]
 * deno task unfold login --config mcp.json github [--no-browser]
 * ```
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { parseGatewayConfig } from "../gateway/config.ts";
import { Gateway } from "../gateway/gateway.ts";
import { backgroundRanker } from "../ranking/deno_ranker.ts";
import { guardMcp } from "../gateway/guard.ts";
import { isLoopbackName } from "../http/guard.ts";
import { openLivePool } from "../gateway/live_pool.ts";
import type { UpstreamStatus } from "../gateway/upstreams.ts";
import { closest, narrowOptions } from "../gateway/profiles.ts";
import { openProfileFaces } from "../gateway/profile_faces.ts";
import { approveCommand, openTrust, watchLock } from "./trust.ts";
import { configEnvironment, withPassedEnvironment } from "../gateway/environment.ts";
import { pinError, pinNotice } from "../gateway/pinned_check.ts";
import { checkSettings } from "../http/settings.ts";
import { createMcpHttpHandler } from "../gateway/face.ts";
import { serveWithDeliverySignal } from "../gateway/delivery_signal.ts";
import { serveHostStdio } from "../gateway/stdio_face.ts";
import { openStdioWire } from "../gateway/stdio_wire.ts";
import { MemorySessionStore } from "../session/memory_store.ts";
import { VERSION } from "../version.ts";
import { denoConnector } from "./connector.ts";
import { fileSnapshotStore, unfoldCacheDir } from "./snapshots.ts";
import { formatReport, inspectCatalog } from "./inspect.ts";
import { login } from "./login.ts";
import { gatewayHost } from "../gateway/host.ts";
import { CountingStore, STATUS_PATHS, statusHandler } from "../gateway/status.ts";
import { pageHandler } from "../http/page.ts";

const USAGE = `Usage:
  unfold gateway --config FILE [--profile NAME] [--http [--port N] [--host H]]
  unfold inspect --config FILE [--profile NAME] [--json]
  unfold approve --config FILE (server/tool ... | --all)
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
  profile?: string;
  all: boolean;
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

// The upstreams' last listings, kept where the environment says; none when it names no place.
function snapshotOption(env: Readonly<Record<string, string | undefined>>) {
  const dir = unfoldCacheDir(env);
  return dir === undefined ? {} : { snapshots: fileSnapshotStore(dir, log) };
}

function log(line: string): void {
  console.error(`unfold: ${line}`);
}

function describe(status: UpstreamStatus): string {
  if (status.state === "ready") return `${status.server}: ready, ${status.tools} tools`;
  if (status.state === "starting") return `${status.server}: starting`;
  if (status.state === "stopped") {
    return `${status.server}: stopped until one of its ${status.tools} tools is called`;
  }
  return `${status.server}: ${status.state} (${status.detail ?? ""})`;
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
  let text;
  try {
    text = await Deno.readTextFile(args.config);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      console.error(`unfold: cannot read the config ${JSON.stringify(args.config)}: no such file`);
      return 1;
    }
    throw e;
  }
  const parsed = parseGatewayConfig(text, configEnvironment(env, args.config, Deno.cwd()));
  if (!parsed.ok) {
    console.error(`unfold: ${args.config}: ${parsed.error.message}`);
    return 1;
  }
  const config = parsed.value;
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
  // A bad UNFOLD_* variable is one line before any upstream starts, not a stack trace.
  const checkedSettings = checkSettings(env);
  if (!checkedSettings.ok) {
    console.error(`unfold: ${checkedSettings.error.message}`);
    return 1;
  }
  const profiles = config.options.profiles ?? {};
  const profile = args.profile === undefined ? undefined : profiles[args.profile];
  if (args.profile !== undefined && profile === undefined) {
    console.error(`unfold: ${args.config}: ${unknownProfile(args.profile, Object.keys(profiles))}`);
    return 1;
  }
  const opened = await openTrust(args.config, config.options, args.command);
  if (!opened.ok) {
    console.error(`unfold: ${args.config}: ${opened.error}`);
    return 1;
  }
  const locked = opened.value;
  if (args.command === "gateway" && locked.notice !== undefined) log(locked.notice);
  if (args.command === "gateway" && config.options.start !== "lazy") {
    if (config.options.idleTimeoutMs !== undefined) log(IDLE_IGNORED);
  }
  const quiet = args.command !== "gateway";
  // Re-lists repeat a server's tool issues: each is logged once (bounded memory).
  const seen = new Set<string>();
  const once = (line: string) => {
    if (seen.has(line)) return;
    if (seen.size >= 10_000) seen.clear();
    seen.add(line);
    log(line);
  };
  // The gateway stops when the host closes stdin (stdio) or on SIGINT/SIGTERM, even while its
  // upstreams are still starting.
  const stop = Promise.withResolvers<void>();
  const stopping = new AbortController();
  void stop.promise.then(() => stopping.abort());
  const signals = ["SIGINT", "SIGTERM"] as const;
  const onSignal = () => stop.resolve();
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  const wire = args.command === "gateway" && !args.http
    ? openStdioWire(Deno.stdin.readable, Deno.stdout.writable)
    : undefined;
  void wire?.ended.then(() => stop.resolve());
  // The word vectors load in the background while the upstreams connect.
  const ranker = backgroundRanker();
  const pool = await openLivePool(
    withPassedEnvironment(config.servers, env),
    denoConnector((server, line) => quiet ? undefined : log(`[${server}] ${line}`), {
      env,
      configPath: args.config,
    }),
    {
      connect: { onToolIssue: (issue) => once(`${issue.server}/${issue.name} ${issue.problem}`) },
      onProgress: (status) => log(describe(status)),
      signal: stopping.signal,
      ...(args.command === "gateway" ? snapshotOption(env) : {}),
      ...(config.options.startupTimeoutMs === undefined
        ? {}
        : { startupTimeoutMs: config.options.startupTimeoutMs }),
      ...(config.options.start === undefined ? {} : { start: config.options.start }),
      ...(config.options.idleTimeoutMs === undefined
        ? {}
        : { idleTimeoutMs: config.options.idleTimeoutMs }),
      restart: {
        ...(config.options.restartDelayMs === undefined
          ? {}
          : { initialDelayMs: config.options.restartDelayMs }),
        ...(config.options.restartMaxDelayMs === undefined
          ? {}
          : { maxDelayMs: config.options.restartMaxDelayMs }),
      },
    },
  );
  const settings = checkedSettings.value;
  // Counted as it goes, for the page's live counters.
  const store = new CountingStore(
    new MemorySessionStore({
      ttlSeconds: settings.sessionTtlSeconds,
      maxSessions: settings.maxSessions,
    }),
  );
  const trust = locked.source;
  const gateway = await Gateway.open(pool, {
    options: config.options,
    store,
    log,
    ranker,
    trust,
    ...(profile === undefined ? {} : { profile }),
    logUnapproved: args.command !== "inspect",
  });
  const refreshAlso: (() => Promise<void>)[] = [gateway.refresh.bind(gateway)];
  // New approvals apply at once: the lock is read again when it changes, and every re-list is
  // compared with it, so a definition changed after start is caught.
  watchLock(locked.lockFile, async () => {
    const problem = await locked.reload();
    if (problem !== undefined) return log(`${problem}; keeping the approvals read before`);
    for (const refresh of refreshAlso) void refresh();
  }, stopping.signal);
  const finish = async () => {
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
    await bounded(gateway.close(), CLOSE_BUDGET_MS);
    return 0;
  };
  // A pin that a live listing lacks is a mistake in the config; one that only a snapshot lacks
  // may be the snapshot's: it is said, and judged again once its server lists live.
  const pins = gateway.missingPins();
  const wrong = pins.find((pin) => pin.listing === "live");
  if (wrong !== undefined) {
    const pointer = pinPointer(wrong.id, config.options.pinned, args.profile, profile?.pinned);
    console.error(`unfold: ${args.config}: ${pinError(wrong, pointer).message}`);
    await finish();
    return 1;
  }
  for (const pin of pins) log(pinNotice(pin));
  if (args.command === "search") {
    await ranker.ready.catch((e) => log(`cannot load the word vectors (${e}): searching without`));
  }
  if (args.command === "inspect") {
    const options = profile === undefined ? config.options : narrowOptions(config.options, profile);
    const report = inspectCatalog(
      gateway.catalog,
      gateway.statuses(),
      options,
      pool.instructions?.(),
    );
    console.log(args.json ? JSON.stringify(report, null, 2) : formatReport(report));
    return await finish();
  }
  if (args.command === "approve") {
    const code = await approveCommand(locked, pool.tools(), args.all ? "all" : args.words);
    await finish();
    return code;
  }
  if (args.command === "search") {
    const matches = gateway.catalog.search(args.words.join(" "), args.limit);
    if (args.json) console.log(JSON.stringify(matches, null, 2));
    else for (const m of matches) console.log(`${m.score.toFixed(3)}  ${m.id}`);
    if (matches.length === 0 && !args.json) {
      // What the model would read for the same search: why nothing matched, and what to do next.
      const bridge = gateway.tools()[0]!.name;
      const miss = await gateway.call(bridge, { action: "search", query: args.words.join(" ") });
      const block = (miss.ok ? miss.result.content?.[0] : undefined) as
        | { type?: unknown; text?: unknown }
        | undefined;
      if (block?.type === "text" && typeof block.text === "string") console.log(block.text);
    }
    const code = await finish();
    return matches.length === 0 ? 1 : code;
  }
  const host = gatewayHost(gateway, VERSION);
  if (wire !== undefined) {
    if (stopping.signal.aborted) return await finish();
    const served = serveHostStdio(host, { wire, onError: (e) => log(e.message) });
    log(`serving ${gateway.catalog.size} tools over stdio`);
    await stop.promise;
    await bounded(served.close(), CLOSE_BUDGET_MS);
    return await finish();
  }
  const sessions = {
    sessions: { kind: "memory" as const, maxSessions: settings.maxSessions },
    onError: (e: Error) => log(e.message),
  };
  const { handle, close } = createMcpHttpHandler(host, sessions);
  const guard = {
    tokens: settings.tokens,
    allowedOrigins: settings.allowedOrigins,
    loopbackOnly: isLoopbackName(args.host),
  };
  const guarded = guardMcp(handle, guard);
  // /mcp/NAME: one gateway per profile over the same upstreams; a name that is no profile is 404.
  const profileFaces = await openProfileFaces(
    pool,
    args.profile === undefined ? Object.values(profiles) : [],
    { options: config.options, store, log, ranker, trust },
    (host) => createMcpHttpHandler(host, sessions),
    guard,
  );
  refreshAlso.push(profileFaces.refresh);
  // The page (GET /) and what it reads (/status, /view, /explain), behind /mcp's own checks.
  const page = pageHandler();
  const status = guardMcp(
    statusHandler({
      gateway,
      options: config.options,
      counters: store.counters,
      maxQueryChars: settings.maxQueryChars,
    }),
    guard,
  );
  const listen = () =>
    serveWithDeliverySignal({
      port: args.port,
      hostname: args.host,
      onListen: ({ hostname, port }) => {
        const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
        log(`serving ${gateway.catalog.size} tools at http://${shown}:${port}/mcp (page: /)`);
      },
    }, async (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/mcp") return guarded(request);
      if (path.startsWith("/mcp/")) return await profileFaces.route(path.slice(5), request);
      if (STATUS_PATHS.has(path)) return status(request);
      return (await page(request)) ??
        new Response("Not found: the MCP endpoint is /mcp, the page is /\n", { status: 404 });
    });
  let server;
  try {
    server = listen();
  } catch (error) {
    // A port taken or refused is the user's to change: one line, and the upstreams stopped.
    const taken = error instanceof Deno.errors.AddrInUse;
    if (!taken && !(error instanceof Deno.errors.PermissionDenied)) throw error;
    console.error(
      `unfold: cannot serve on ${args.host}:${args.port}: ${
        taken ? "the port is in use" : "not permitted"
      }; choose another with --port (0 takes any free one)`,
    );
    await bounded(Promise.all([close(), profileFaces.close()]), CLOSE_BUDGET_MS);
    await finish();
    return 1;
  }
  await stop.promise;
  await bounded(
    Promise.all([close(), server.shutdown(), profileFaces.close()]),
    CLOSE_BUDGET_MS,
  );
  return await finish();
}

// Said once when the config sets an idle timeout that the eager start never uses.
const IDLE_IGNORED =
  'unfold.idleTimeoutMs is ignored: it applies to "start": "lazy" (an eager gateway never stops its servers)';

// How long closing may take before the process exits anyway: the host expects the gateway gone
// within 2 s of closing its stdin, upstreams included.
const CLOSE_BUDGET_MS = 750;

async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.catch(() => {}),
    new Promise((resolve) => timer = setTimeout(resolve, ms)),
  ]);
  clearTimeout(timer);
}

// Where the config sets a pin: the profile's own list when it has one, else the config's.
function pinPointer(
  id: string,
  pinned: readonly string[],
  profileName: string | undefined,
  profilePinned: readonly string[] | undefined,
): string {
  return profilePinned === undefined
    ? `/unfold/pinned/${pinned.indexOf(id)}`
    : `/unfold/profiles/${profileName}/pinned/${profilePinned.indexOf(id)}`;
}

function unknownProfile(name: string, names: readonly string[]): string {
  return `unknown profile ${JSON.stringify(name)}: ${
    names.length === 0
      ? 'the config has no "unfold.profiles"'
      : `the profiles are ${names.join(", ")}${closest(name, names)}`
  }`;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
