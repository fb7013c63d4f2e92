/**
 * What each real host sends its model, in tokens: Claude Code, Codex CLI and Gemini CLI (the
 * pinned versions of `test/hosts/_hosts.ts`), each driven headless by a scripted model on
 * 127.0.0.1, with no MCP servers; the three reference servers of `examples/gateway/mcp.json`
 * connected directly; the same behind unfold (`unfold setup HOST`); and Claude Code's own tool
 * search (`ENABLE_TOOL_SEARCH=true`) over the direct servers.
 *
 * Each session is the same task, "echo hi with the everything server": behind unfold the model
 * searches, describes and executes `everything/echo` (search and describe through the read-only
 * `discover` tool); direct, it calls the echo tool (after the host's own tool search where the
 * host defers it: Codex always, Claude Code with tool search); with no servers it answers at once.
 *
 * Each figure is the project's estimate (`src/tokens.ts`, ceil(code points / 4)) over the request
 * JSON the host sent: `tools` (a Claude `defer_loading` tool only once a `tool_reference` loaded
 * it; Codex: with the tools its `tool_search` loaded into the input),
 * the system prompt (Anthropic `system`, OpenAI `instructions`, Gemini `systemInstruction`) and
 * the conversation texts the host adds for MCP (Claude Code's "MCP Server Instructions" reminder,
 * Codex's "Added deferred tool namespaces" message, …): the first request, and the mean over the
 * session's requests.
 *
 * Run (about 5 minutes; the hosts install once, `deno run -A test/hosts/_hosts.ts`):
 * `nice deno run -A --node-modules-dir=auto bench/hosts.ts`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import type { HostName } from "../test/hosts/_hosts.ts";
import { HOSTS } from "../test/hosts/_hosts.ts";
import { type ModelTool, roundTrip, type Script } from "../test/hosts/_model.ts";
import { BRIDGE, referenceServers } from "../test/hosts/_run.ts";
import { DISCOVER } from "../test/hosts/_scenario.ts";
import { estimateTokens } from "../src/tokens.ts";
import { hostSession, type Request } from "./_host_session.ts";

/** The configurations measured. */
export type Mode = "none" | "direct" | "unfold" | "tool search";

const ECHO: Record<HostName, (tool: ModelTool) => boolean> = {
  "claude-code": (tool) => tool.name === "mcp__everything__echo",
  codex: (tool) => tool.name === "echo" && tool.namespace === "mcp__everything",
  gemini: (tool) => tool.name === "mcp_everything_echo",
};

const HOST_SEARCH = /^(tool_search|ToolSearch)$/;

// Direct: call the echo tool once it is offered, after the host's own search where it defers it.
function direct(host: HostName): Script {
  return (turn) => {
    const echo = turn.tools.find(ECHO[host]);
    if (echo !== undefined) {
      if (turn.calls.some((c) => c.name === echo.name)) return { text: "done" };
      return {
        call: {
          name: echo.name,
          arguments: { message: "hi" },
          ...(echo.namespace === undefined ? {} : { namespace: echo.namespace }),
        },
      };
    }
    const searched = turn.calls.filter((c) => HOST_SEARCH.test(c.name)).length;
    if (turn.tools.some((t) => HOST_SEARCH.test(t.name)) && searched < 3) {
      return { toolSearch: { query: "echo a message back" } };
    }
    return { text: "done" };
  };
}

function script(host: HostName, mode: Mode): Script {
  if (mode === "none") return () => ({ text: "done" });
  if (mode !== "unfold") return direct(host);
  return roundTrip(BRIDGE[host], {
    query: "echo a message back",
    arguments: { message: "hi" },
    discover: "mcp servers search describe execute tools",
    readOnly: DISCOVER[host],
    ...(host === "gemini" ? { extra: { wait_for_previous: true } } : {}),
  });
}

// Texts of the conversation that the host adds for MCP (not the user's prompt, not results).
const MCP_TEXT = /MCP Server Instructions|deferred tool|mcp__|<tool-catalogue|MCP server/i;

/** The tokens of one request: tools, system prompt, the host's MCP texts. */
export function requestTokens(host: HostName, request: Request): number {
  const body = request.body;
  const tokens = (value: unknown) =>
    value === undefined
      ? 0
      : estimateTokens(typeof value === "string" ? value : JSON.stringify(value));
  // A deferred tool (Claude `defer_loading`) reaches the model only once a `tool_reference`
  // loaded it: until then it is not counted.
  const loaded = new Set(
    [...JSON.stringify(body.messages ?? []).matchAll(/"tool_name":"([^"]+)"/g)].map((m) => m[1]),
  );
  const offered = Array.isArray(body.tools)
    ? (body.tools as Record<string, unknown>[]).filter((tool) =>
      tool.defer_loading !== true || loaded.has(String(tool.name))
    )
    : body.tools;
  let tools = tokens(offered);
  if (host === "codex" && Array.isArray(body.input)) {
    for (const item of body.input as Record<string, unknown>[]) {
      if (item.type === "tool_search_output") tools += tokens(item.tools);
    }
  }
  const system = tokens(
    host === "claude-code"
      ? body.system
      : host === "codex"
      ? body.instructions
      : body.systemInstruction,
  );
  const mcp = request.turn.texts.filter((text) => MCP_TEXT.test(text)).reduce(
    (sum, text) => sum + tokens(text),
    0,
  );
  return tools + system + mcp;
}

/** One measured row. */
export interface Row {
  host: HostName;
  mode: Mode;
  first: number;
  mean: number;
  requests: number;
  ok: boolean;
}

/**
 * Measures one host in one configuration.
 *
 * @param host The host.
 * @param mode The configuration.
 * @returns The row.
 */
export async function measure(host: HostName, mode: Mode): Promise<Row> {
  const env: Record<string, string> = {};
  const args: string[] = [];
  if (host === "claude-code") {
    // Wait for the servers before the first request, in every configuration alike.
    Object.assign(env, { MCP_CONNECTION_NONBLOCKING: "false", MCP_CONNECT_TIMEOUT_MS: "60000" });
    if (mode === "tool search") env.ENABLE_TOOL_SEARCH = "true";
    if (mode === "direct" || mode === "tool search") args.push("--allowedTools", "mcp__everything");
  }
  if (host === "gemini") args.push("--approval-mode", "yolo");
  const session = await hostSession({
    host,
    servers: (box) => mode === "none" ? Promise.resolve({}) : referenceServers(box),
    behindUnfold: mode === "unfold",
    script: script(host, mode),
    prompt: "Echo hi with the everything server",
    env,
    args,
    unfold: { startupTimeoutMs: 45_000 },
    prepare: host !== "codex" || mode === "none" ? undefined : async ({ file }) => {
      // What Codex writes when the user allows the tool for good (the bridge; direct, the echo).
      const [server, tool] = mode === "unfold" ? ["unfold", "mcp"] : ["everything", "echo"];
      const text = await Deno.readTextFile(file);
      await Deno.writeTextFile(
        file,
        `${text}\n[mcp_servers.${server}.tools.${tool}]\napproval_mode = "approve"\n`,
      );
    },
  });
  const counts = session.requests.map((r) => requestTokens(host, r));
  const results = session.requests.at(-1)?.turn.results.join("\n") ?? "";
  return {
    host,
    mode,
    first: counts[0] ?? 0,
    mean: counts.length === 0 ? 0 : Math.round(counts.reduce((a, b) => a + b, 0) / counts.length),
    requests: counts.length,
    ok: mode === "none" ? session.ran.code === 0 : /Echo: hi/.test(results),
  };
}

if (import.meta.main) {
  const only = Deno.args[0] as HostName | undefined;
  const rows: Row[] = [];
  for (const host of Object.keys(HOSTS) as HostName[]) {
    if (only !== undefined && only !== host) continue;
    const modes: Mode[] = [
      "none",
      "direct",
      "unfold",
      ...(host === "claude-code" ? ["tool search" as const] : []),
    ];
    for (const mode of modes) {
      const row = await measure(host, mode);
      rows.push(row);
      console.error(JSON.stringify(row));
    }
  }
  const fmt = (n: number) => n.toLocaleString("en-US");
  console.log("| host | configuration | first request | mean per request | requests | echo done |");
  console.log("| --- | --- | ---: | ---: | ---: | --- |");
  for (const row of rows) {
    const host = `${row.host} ${HOSTS[row.host].version}`;
    console.log(
      `| ${host} | ${row.mode} | ${fmt(row.first)} | ${fmt(row.mean)} | ${row.requests} | ${
        row.ok ? "yes" : "no"
      } |`,
    );
  }
}
