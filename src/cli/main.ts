/**
 * The `unfold` command (Deno): `setup` moves a host's servers behind unfold, `gateway` serves the
 * upstreams of an `mcpServers` config as one MCP server (stdio, or Streamable HTTP with `--http`),
 * `inspect` reports what they cost and what unfold saves, `search` shows what the model would
 * find. Logs go to stderr only. `unfold --help` lists every command and option.
 *
 * ```sh
 * unfold setup claude-desktop
 * unfold gateway --config mcp.json [--profile work] [--http --port 8788]
 * unfold inspect --config mcp.json [--json] [--profile work]
 * unfold approve --config mcp.json [--profile work] (server/tool …| --all) [--dry-run]
 * unfold search --config mcp.json [--profile work] "create an issue" [--limit 10] [--json]
 * unfold login --config mcp.json github [--no-browser]
 * ```
 *
 * No names: the CLI is a program (`deno task unfold`, `deno run …/cli`), not a library; the
 * gateway it serves is `./gateway`.
 *
 * @module
 */
// deno-lint-ignore-file no-console

// Static: only what reading the config and spawning the upstreams needs. The rest (the server
// SDK, the gateway, the ranker) loads while the upstreams start (the stdio gateway: before they
// start), and each command's own modules when it runs: loading them all first cost the start
// ~130 ms and the process ~15 MiB.
import { poolOptions } from "../gateway/config/parse.ts";
import { openLivePool } from "../gateway/pool/live_pool.ts";
import type { UpstreamStatus } from "../gateway/pool/upstreams.ts";
import {
  invalidDetail,
  setAsideServers,
  unsetDetail,
  withUnavailable,
} from "../gateway/pool/unavailable.ts";
import {
  closest,
  inProfile,
  narrowOptions,
  profileSeesServer,
} from "../gateway/config/profiles.ts";
import { openTrust, watchLock } from "./trust.ts";
import { withPassedEnvironment } from "../gateway/config/environment.ts";
import { checkSettings } from "../http/settings.ts";
import { denoConnector } from "./connector.ts";
import { RootsHub } from "../gateway/roots/hub.ts";
import { fileSnapshotStore, unfoldCacheDir } from "./snapshots.ts";
import { parseArgs } from "./args.ts";
import { readConfigFile, unsetProblem } from "./config_file.ts";
import { defaultConfigPath } from "./unfold_config.ts";
import { bounded, CLOSE_BUDGET_MS } from "./_closing.ts";
import { hostAnswerMs, knownHost } from "../gateway/host_profiles.ts";

// The modules every command past the upstreams' start needs, loaded together.
async function gatewayModules() {
  const [gateway, ranker, store, status, pinned, file, sandbox] = await Promise.all([
    import("../gateway/gateway.ts"),
    import("../ranking/deno_ranker.ts"),
    import("../session/memory_store.ts"),
    import("../gateway/faces/status.ts"),
    import("../gateway/pinned_check.ts"),
    import("../deno/ranking_file.ts"),
    import("./lazy_sandbox.ts"),
  ]);
  return { ...gateway, ...ranker, ...store, ...status, ...pinned, ...file, ...sandbox };
}

// The upstreams' last listings, kept where the environment says; none when it names no place.
function snapshotOption(env: Readonly<Record<string, string | undefined>>) {
  const dir = unfoldCacheDir(env);
  return dir === undefined ? {} : { snapshots: fileSnapshotStore(dir, log) };
}

// What search learns, kept under the cache directory when the environment names one.
async function learningOption(env: Readonly<Record<string, string | undefined>>) {
  const [{ Learning }, { fileLearnedStore }] = await Promise.all([
    import("../session/learned.ts"),
    import("./learned_store.ts"),
  ]);
  const dir = unfoldCacheDir(env);
  return new Learning(dir === undefined ? undefined : fileLearnedStore(dir, log), { log });
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
  const env = Deno.env.toObject();
  const parsedArgs = parseArgs(argv, defaultConfigPath(env));
  if (!parsedArgs.ok) {
    console.error(`unfold: ${parsedArgs.error}\n${parsedArgs.usage}`);
    return 2;
  }
  const args = parsedArgs.value;
  if (args.text !== undefined) {
    console.log(args.text);
    return 0;
  }
  if (args.command === "setup") {
    const { setup } = await import("./setup.ts");
    return await setup({
      host: args.words[0]!,
      ...(args.file === undefined ? {} : { file: args.file }),
      ...(args.scope === undefined ? {} : { scope: args.scope }),
      config: args.config,
      configGiven: args.configGiven,
      dryRun: args.dryRun,
      undo: args.undo,
      env,
      print: (line) => console.log(line),
      error: (line) => console.error(line),
    });
  }
  if (args.command === "forget") {
    // The cache alone: no config is read, no server started.
    const dir = unfoldCacheDir(env);
    if (dir === undefined) {
      console.error("unfold: no cache directory to forget from: set UNFOLD_CACHE_DIR (or HOME)");
      return 1;
    }
    const { forgetLearned } = await import("./learned_store.ts");
    const removed = await forgetLearned(dir, args.profile);
    console.log(
      `forgot what search learned${
        args.profile === undefined ? "" : ` for the profile ${JSON.stringify(args.profile)}`
      } (${removed} ${removed === 1 ? "file" : "files"} under ${dir})`,
    );
    return 0;
  }
  const parsed = await readConfigFile(args, env, log);
  if (!parsed.ok) {
    console.error(`unfold: ${parsed.error}`);
    return 1;
  }
  const config = parsed.value;
  if (args.command === "login") {
    // Signing in to a server needs that server's variables, no other's.
    const unset = unsetProblem(
      args.config,
      config,
      (a) => a.kind === "server" && a.name === args.words[0],
    );
    if (unset !== undefined) {
      console.error(`unfold: ${unset}`);
      return 1;
    }
    const { login } = await import("./login.ts");
    const result = await login({
      config,
      configPath: args.config,
      server: args.words[0]!,
      browser: args.browser,
      ...(args.timeoutSeconds === undefined ? {} : { timeoutMs: args.timeoutSeconds * 1000 }),
      ...(args.callbackPort === undefined ? {} : { callbackPort: args.callbackPort }),
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
  // A name from the command line is data: `constructor` is a profile only if the config has one.
  const profile = args.profile !== undefined && Object.hasOwn(profiles, args.profile)
    ? profiles[args.profile]
    : undefined;
  // A profile whose entry cannot be read is never served (its view could not be told): its
  // command stops with the problem, the other profiles serve.
  const invalidProfiles = new Map(
    (config.invalid ?? []).filter((e) => e.kind === "profile").map((e) => [e.name, e.error]),
  );
  if (args.profile !== undefined && invalidProfiles.has(args.profile)) {
    console.error(`unfold: ${args.config}: ${invalidProfiles.get(args.profile)!.message}`);
    return 1;
  }
  if (args.profile !== undefined && profile === undefined) {
    console.error(`unfold: ${args.config}: ${unknownProfile(args.profile, Object.keys(profiles))}`);
    return 1;
  }
  // A server's problem is that server's: one whose entry cannot be read or names a variable not
  // set is unavailable, said here and in every state the command shows, and never started; the
  // rest serve.
  const awaiting = config.awaiting ?? [];
  const unavailableServers = setAsideServers(config).filter((s) =>
    profile === undefined || profileSeesServer(profile, s.server)
  );
  for (const { server, detail } of unavailableServers) {
    log(describe({ server, state: "unavailable", detail, tools: 0 }));
  }
  // A profile whose token names a variable not set cannot tell its clients apart over HTTP: it is
  // not served there (stdio has no tokens), and the others are.
  const awaitingProfiles = new Map(
    awaiting.filter((a) => a.kind === "profile").map((a) => [
      a.name,
      unsetDetail(a.variables, a.error.pointer),
    ]),
  );
  // What /mcp/NAME and /status say of the profiles not served (over stdio: the invalid ones).
  const invalidSaid = [...invalidProfiles].map(([name, e]) => [name, invalidDetail(e)] as const);
  const unservedProfiles = new Map([...invalidSaid, ...awaitingProfiles]);
  if (args.http && profile !== undefined && awaitingProfiles.has(profile.name)) {
    console.error(
      `unfold: ${args.config}: the profile ${
        JSON.stringify(profile.name)
      } cannot be served over HTTP: ${awaitingProfiles.get(profile.name)}`,
    );
    return 1;
  }
  if (profile === undefined) {
    for (const [name, why] of args.http ? unservedProfiles : new Map(invalidSaid)) {
      log(
        `profile ${JSON.stringify(name)}: not served${args.http ? ` at /mcp/${name}` : ""}: ${why}`,
      );
    }
  }
  // Over HTTP the profiles served are the one named, or all; a token must open one of them only.
  const httpProfiles = profile === undefined
    ? Object.values(profiles).filter((p) => !awaitingProfiles.has(p.name))
    : [profile];
  const clash = args.http
    ? (await import("../gateway/faces/routes.ts")).profileTokenProblem(
      checkedSettings.value.tokens,
      httpProfiles,
    )
    : undefined;
  if (clash !== undefined) {
    console.error(`unfold: ${args.config}: ${clash}`);
    return 1;
  }
  const opened = await openTrust(args.config, config.options, args.command, env);
  if (!opened.ok) {
    console.error(`unfold: ${args.config}: ${opened.error}`);
    return 1;
  }
  const locked = opened.value;
  if (locked.skipped !== undefined) log(locked.skipped);
  else if (args.command === "gateway" && locked.notice !== undefined) log(locked.notice);
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
  // A profile's command starts the profile's servers only: the others are not its to run.
  const servers = profile === undefined
    ? config.servers
    : config.servers.filter((server) => profileSeesServer(profile, server.server));
  const serves = args.command === "gateway" && !args.http;
  // Resolved once the stdio gateway serves its host (at its exit at the latest).
  const servesHost = Promise.withResolvers<void>();
  // The hosts' roots, passed on to the upstreams (docs/gateway.md "Roots"): over stdio the one
  // host's, awaited while it is still to say whether it has any.
  const roots = args.command === "gateway" ? new RootsHub({ awaitHost: serves, log }) : undefined;
  const connector = denoConnector(
    (server, line) => quiet ? undefined : log(`[${server}] ${line}`),
    {
      env,
      configPath: args.config,
    },
  );
  const openPool = () =>
    openLivePool(
      withPassedEnvironment(servers, env),
      roots === undefined
        ? connector
        : (config, options) =>
          connector(config, { ...options, roots: roots.upstream(config.server) }),
      {
        connect: {
          onToolIssue: (issue) => once(`${issue.server}/${issue.name} ${issue.problem}`),
        },
        onProgress: (status) => log(describe(status)),
        signal: stopping.signal,
        ...(args.command === "gateway" ? snapshotOption(env) : {}),
        // A host waits for its servers only so long, counted from when it started the gateway:
        // the stdio gateway answers within that, and its servers listed from a snapshot start
        // once it serves.
        ...(serves
          ? {
            startupTimeoutMs: Math.max(
              0,
              hostAnswerMs(knownHost(undefined, args.profile)) - performance.now(),
            ),
            startAfter: servesHost.promise,
          }
          : {}),
        ...poolOptions(config.options),
      },
    );
  // Elsewhere the upstreams are spawned first and what the command needs loads while they start.
  // Over stdio the gateway loads first: 14 servers starting beside it took the CPU from it, and it
  // answered Claude Code's initialize after 6.2 to 14.9 s (Claude Code waits 5 s), against 1.4 to
  // 1.6 s when nothing else started (load 15 on 2 cores).
  let opening = serves ? undefined : openPool();
  // Awaited below, once the rest has loaded; a failure meanwhile is not an unhandled one.
  opening?.catch(() => {});
  const [loaded, stdio] = await Promise.all([
    gatewayModules(),
    serves ? import("../gateway/faces/stdio.ts") : undefined,
    // The SDK's server, loaded here too (once: the import below finds it) before the servers start.
    serves ? import("../gateway/faces/server.ts") : undefined,
  ]);
  opening ??= openPool();
  const {
    Gateway,
    backgroundRanker,
    loadDenoRanker,
    MemorySessionStore,
    CountingStore,
    pinError,
    pinNotice,
    lazySandbox,
  } = loaded;
  // Read from now on, so that the host closing stdin stops the gateway at once.
  const connection = stdio?.openHostStdio();
  void connection?.ended.then(() => stop.resolve());
  // The word vectors load in the background while the upstreams connect.
  // Read without blocking: a named pipe in the data's place leaves lexical search, said.
  const ranker = backgroundRanker({ load: () => loadDenoRanker() });
  const pool = withUnavailable(await opening, unavailableServers);
  const settings = checkedSettings.value;
  // Counted as it goes, for the page's live counters.
  const store = new CountingStore(
    new MemorySessionStore({
      ttlSeconds: settings.sessionTtlSeconds,
      maxSessions: settings.maxSessions,
    }),
  );
  const trust = locked.source;
  // What search learns from the runs, kept under the cache directory (memory only without one).
  const learning = args.command === "gateway" || args.command === "search"
    ? await learningOption(env)
    : undefined;
  // Code mode's sandbox: a child deno with no permissions per run, shared by every profile. After
  // a first run one process waits for the next (a run then took 94 ms, not 379: bench/code_mode.ts);
  // a gateway that never runs a script starts none, nor loads its module.
  const sandbox = lazySandbox();
  const gateway = await Gateway.open(pool, {
    options: config.options,
    store,
    log,
    ranker,
    trust,
    sandbox,
    ...(profile === undefined ? {} : { profile }),
    logUnapproved: args.command !== "inspect",
    ...(learning === undefined ? {} : { learning }),
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
    servesHost.resolve();
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
    await bounded(gateway.close(), CLOSE_BUDGET_MS);
    await bounded(sandbox.close(), CLOSE_BUDGET_MS);
    if (learning !== undefined) await bounded(learning.settled(), CLOSE_BUDGET_MS);
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
    const { formatReport, inspectCatalog, withChanges } = await import("./inspect.ts");
    const options = profile === undefined ? config.options : narrowOptions(config.options, profile);
    const report = withChanges(
      inspectCatalog(gateway.catalog, gateway.statuses(), options, pool.instructions?.()),
      gateway.unapproved(),
    );
    console.log(args.json ? JSON.stringify(report, null, 2) : formatReport(report, trust.approve));
    return await finish();
  }
  if (args.command === "approve") {
    const ids = args.all ? "all" : args.words;
    // A profile approves what its clients can reach: its own tools, none of another's.
    const tools = profile === undefined
      ? pool.tools()
      : pool.tools().filter((tool) => inProfile(profile, tool));
    const { approveCommand } = await import("./approve.ts");
    const code = await approveCommand(locked, tools, ids, args.dryRun === true);
    await finish();
    return code;
  }
  if (args.command === "search") {
    // What the model would find: with what this profile's stdio sessions learned, when on.
    const learned = learning !== undefined && gateway.presentation.injector.config.learn
      ? await learning.prior({ face: "gateway", profile: args.profile ?? "", tenant: "" })
      : undefined;
    const matches = gateway.catalog.search(args.words.join(" "), args.limit, { learned });
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
  const [{ gatewayHost }, { VERSION }] = await Promise.all([
    import("../gateway/faces/server.ts"),
    import("../version.ts"),
  ]);
  const host = gatewayHost(gateway, VERSION, roots?.scope(() => true));
  if (connection !== undefined && stdio !== undefined) {
    if (stopping.signal.aborted) return await finish();
    const served = stdio.serveHostStdio(host, {
      stdio: connection,
      onError: (e) => log(e.message),
    });
    log(`serving ${gateway.catalog.size} tools over stdio`);
    // After the messages held meanwhile (the host's initialize) are answered.
    setTimeout(() => servesHost.resolve(), 0);
    await stop.promise;
    await bounded(served.close(), CLOSE_BUDGET_MS);
    return await finish();
  }
  const { serveHttp } = await import("./serve_http.ts");
  const serving = await serveHttp({
    host,
    gateway,
    pool,
    profiles: profile === undefined ? httpProfiles : [],
    ...(profile === undefined ? { unavailableProfiles: unservedProfiles } : {}),
    ...(args.profile === undefined ? {} : { servedProfile: args.profile }),
    // Served alone, a profile's /view shows its own context size and pins.
    deps: {
      options: profile === undefined ? config.options : narrowOptions(config.options, profile),
      store,
      log,
      ranker,
      trust,
      sandbox,
      ...(learning === undefined ? {} : { learning }),
    },
    counters: store.counters,
    // Served alone, the profile is all there is: its tokens open what the command serves.
    settings: profile?.tokens === undefined
      ? settings
      : { ...settings, tokens: [...settings.tokens, ...profile.tokens] },
    listen: { hostname: args.host, port: args.port },
    log,
    ...(roots === undefined ? {} : { roots }),
  });
  if (!serving.ok) {
    console.error(`unfold: ${serving.error}`);
    await finish();
    return 1;
  }
  refreshAlso.push(serving.value.refresh);
  await stop.promise;
  await serving.value.close();
  return await finish();
}

// Said once when the config sets an idle timeout that the eager start never uses.
const IDLE_IGNORED =
  'unfold.idleTimeoutMs is ignored: it applies to "start": "lazy" (an eager gateway never stops its servers)';

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
