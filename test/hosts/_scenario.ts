/**
 * The scenario every host test runs in its own sandbox: the reference servers in the host's
 * user-scope file, `unfold setup HOST`, the host's own `mcp list`, one headless session whose
 * scripted model searches, describes and executes `everything/echo` through the bridge (the
 * read-only discovery tool for search and describe where the host offers it), and `--undo`.
 * Each host costs one session: the hosts are heavy.
 *
 * @module
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import type { HostName } from "./_hosts.ts";
import { ANTHROPIC } from "./_anthropic.ts";
import { GEMINI } from "./_gemini.ts";
import { OPENAI } from "./_openai.ts";
import { type ModelTool, type ModelTurn, roundTrip, serveModel } from "./_model.ts";
import { refusingProxy } from "./_proxy.ts";
import {
  BRIDGE,
  hostFile,
  mcpList,
  modelEnv,
  type Ran,
  referenceServers,
  runPrompt,
  sandbox,
  unfold,
  writeHostFile,
} from "./_run.ts";

/** What one host's scenario saw. */
export interface Seen {
  /** `unfold setup HOST`. */
  setup: Ran;
  /** The host's `mcp list`. */
  list: Ran;
  /** The session. */
  session: Ran;
  /** The generation requests of the session's main thread (those that offer tools). */
  turns: ModelTurn[];
  /** The host file after setup. */
  setUp: string;
  /** The host file before setup, just before `--undo` (the host may have written it), and after. */
  before: string;
  beforeUndo: string;
  after: string;
  /** The host's file format. */
  host: HostName;
  /** What was asked of the refusing proxy. */
  proxied: string[];
}

/** The discovery tool as each host names it. */
export const DISCOVER: Record<HostName, (tool: ModelTool) => boolean> = {
  "claude-code": (tool) => tool.name === "mcp__unfold__discover",
  codex: (tool) => tool.name === "discover" && tool.namespace === "mcp__unfold",
  gemini: (tool) => tool.name === "mcp_unfold_discover",
};

/** Options of {@linkcode hostScenario}. */
export interface ScenarioOptions {
  /** Variables for the session (Claude Code's `MCP_CONNECTION_NONBLOCKING`, …). */
  env?: Record<string, string>;
  /** More arguments for the session (Gemini CLI's `--approval-mode yolo`). */
  args?: string[];
  /** A step between setup and the session (an approval the user gives in the host's file). */
  approve?: (file: string) => Promise<void>;
  /** Keys for the `unfold` block of unfold's config after setup. */
  unfold?: Record<string, unknown>;
  /**
   * What the model searches for and executes, and the prompt.
   * @default {everything/echo with "hi"}
   */
  round?: { query: string; arguments: Record<string, unknown>; prompt: string };
}

/**
 * Runs the scenario in a host.
 *
 * @param host The host.
 * @param options The session's variables and arguments.
 * @returns What it saw.
 */
export async function hostScenario(host: HostName, options: ScenarioOptions = {}): Promise<Seen> {
  const api = host === "claude-code" ? ANTHROPIC : host === "codex" ? OPENAI : GEMINI;
  await using proxy = refusingProxy();
  const box = await sandbox({
    HTTP_PROXY: proxy.url,
    HTTPS_PROXY: proxy.url,
    http_proxy: proxy.url,
    https_proxy: proxy.url,
  });
  try {
    await using model = serveModel(
      api,
      roundTrip(BRIDGE[host], {
        query: options.round?.query ?? "echo a message back",
        arguments: options.round?.arguments ?? { message: "hi" },
        // What a model asks its host's tool search for when the bridge is deferred (Codex).
        discover: "mcp servers search describe execute tools",
        ready: () => snapshotsWritten(join(box.home, ".cache", "unfold", "snapshots"), 3),
        readOnly: DISCOVER[host],
        // Gemini CLI adds it to every tool and forwards it; the others never do.
        ...(host === "gemini" ? { extra: { wait_for_previous: true } } : {}),
      }),
    );
    await writeHostFile(host, box, model.url, await referenceServers(box));
    const file = hostFile(host, box);
    const before = await Deno.readTextFile(file);
    const setup = await unfold(box, "setup", host);
    const setUp = await Deno.readTextFile(file);
    await options.approve?.(file);
    if (options.unfold !== undefined) {
      const path = join(box.home, ".config", "unfold", "mcp.json");
      const config = JSON.parse(await Deno.readTextFile(path));
      config.unfold = { ...config.unfold, ...options.unfold };
      await Deno.writeTextFile(path, JSON.stringify(config, null, 2));
    }
    const env = { ...modelEnv(host, model.url), ...options.env };
    const list = await mcpList(host, box, env);
    const prompt = options.round?.prompt ?? "Echo hi with the everything server";
    const session = await runPrompt(host, box, prompt, {
      env,
      ...(options.args === undefined ? {} : { args: options.args }),
    });
    const beforeUndo = await Deno.readTextFile(file);
    const undo = await unfold(box, "setup", host, "--undo");
    equal(undo.code, 0, undo.stderr);
    const after = await Deno.readTextFile(file);
    const turns = model.turns().filter((turn) => turn.tools.length > 0);
    return {
      setup,
      list,
      session,
      turns,
      setUp,
      before,
      beforeUndo,
      after,
      host,
      proxied: [...proxy.asked],
    };
  } finally {
    await Deno.remove(box.home, { recursive: true }).catch(() => {});
  }
}

/**
 * Checks that a text carries the overview once and whole: one catalogue block, closed, nothing of
 * it cut by the host, every server in it.
 *
 * @param text What the model reads.
 * @returns The level the overview is at.
 */
export function assertWholeOverviewOnce(text: string): string {
  equal(occurrences(text, "<tool-catalogue"), 1, "the overview is not there once");
  const at = text.indexOf("<tool-catalogue");
  const block =
    /<tool-catalogue level="(\w+)" servers="3" tools="\d+">\n([^<]*?)\n<\/tool-catalogue>/
      .exec(text.slice(at));
  ok(block, text.slice(at, at + 2_500));
  ok(!block[2]!.includes("[truncated]"), block[2]);
  for (const server of ["everything", "filesystem", "memory"]) {
    ok(block[2]!.includes(server), `${server} is not in ${block[2]}`);
  }
  return block[1]!;
}

/**
 * Every text of a request the model reads: system prompt, messages, tool descriptions.
 *
 * @param turn The request.
 * @returns The texts joined.
 */
export function everything(turn: ModelTurn): string {
  return [
    turn.system,
    ...turn.texts,
    ...turn.namespaces.map((n) => n.description),
    ...turn.tools.map((t) => t.description),
  ].join("\n");
}

/**
 * How often a text occurs in another.
 *
 * @param text The text searched.
 * @param part What is counted.
 * @returns The count.
 */
export function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

// A host file as data, and the key of its servers.
function hostData(host: HostName, text: string): Record<string, unknown> {
  return (host === "codex" ? parseToml(text) : JSON.parse(text)) as Record<string, unknown>;
}
const serversKey = (host: HostName) => host === "codex" ? "mcp_servers" : "mcpServers";

/**
 * Checks what every host's scenario must show: setup on the user-scope file; `--undo` as an
 * inverse edit (the servers back as they were, and whatever the host itself wrote to its file
 * during the session kept: Claude Code and Gemini CLI both rewrite theirs); a round trip that
 * ended with the echo.
 *
 * @param seen What the scenario saw.
 */
export function assertCommon(seen: Seen): void {
  equal(seen.setup.code, 0, seen.setup.stderr);
  ok(
    /Moved 3 servers \(everything, filesystem, memory\)/.test(seen.setup.stdout),
    seen.setup.stdout,
  );
  ok(seen.setUp.includes("unfold") && !seen.setUp.includes("server-memory"), seen.setUp);
  const key = serversKey(seen.host);
  deepEqual(hostData(seen.host, seen.after), {
    ...hostData(seen.host, seen.beforeUndo),
    [key]: hostData(seen.host, seen.before)[key],
  });
  // Byte for byte when the host left its file alone.
  if (seen.beforeUndo === seen.setUp) equal(seen.after, seen.before);
  equal(seen.session.code, 0, seen.session.stderr.slice(-3000));
  // Every request to leave the machine was refused by the proxy: none reached anywhere.
  ok(seen.proxied.every((line) => line !== ""), JSON.stringify(seen.proxied));
}

/**
 * Resolves once a gateway has listed `count` servers: their snapshot files are in the folder
 * (the gateway writes each after its first listing, under a temporary name renamed into place).
 * Watches the folder (created when missing): an event, no timer. Resolved at once when they are
 * already there.
 *
 * @param folder The gateway's snapshot folder.
 * @param count How many servers.
 */
export async function snapshotsWritten(folder: string, count: number): Promise<void> {
  await Deno.mkdir(folder, { recursive: true });
  const watcher = Deno.watchFs(folder);
  try {
    const written = async () => {
      let n = 0;
      for await (const entry of Deno.readDir(folder)) {
        if (/^[0-9a-f]{64}\.json$/.test(entry.name)) n++;
      }
      return n >= count;
    };
    if (await written()) return;
    for await (const _event of watcher) if (await written()) return;
  } finally {
    watcher.close();
  }
}
