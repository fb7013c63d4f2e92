/**
 * One headless session of a real host (Claude Code, Codex CLI, Gemini CLI) for the host benches:
 * a sandboxed `HOME` whose user-scope file holds the given servers (moved behind unfold by `unfold
 * setup HOST` when asked), the host pointed at a scripted model on 127.0.0.1 (`test/hosts/`), any
 * other traffic refused. Returns every generation request the host sent, raw, as the model API
 * received it.
 *
 * @module
 */

import { join } from "node:path";
import type { HostName } from "../test/hosts/_hosts.ts";
import { ANTHROPIC } from "../test/hosts/_anthropic.ts";
import { GEMINI } from "../test/hosts/_gemini.ts";
import { OPENAI } from "../test/hosts/_openai.ts";
import { type ModelTurn, type Script, serveModel } from "../test/hosts/_model.ts";
import { refusingProxy } from "../test/hosts/_proxy.ts";
import {
  hostFile,
  modelEnv,
  type Ran,
  runPrompt,
  type Sandbox,
  sandbox,
  type ServerEntry,
  unfold,
  writeHostFile,
} from "../test/hosts/_run.ts";

/** A generation request: its body as sent and as the model read it. */
export interface Request {
  /** The parsed JSON body. */
  body: Record<string, unknown>;
  /** The request as the model reads it. */
  turn: ModelTurn;
}

/** What a session is. */
export interface SessionPlan {
  /** The host. */
  host: HostName;
  /** The servers in the host's file, by name (built in the sandbox). */
  servers: (box: Sandbox) => Promise<Record<string, ServerEntry>>;
  /** Whether `unfold setup HOST` moves them behind unfold first. */
  behindUnfold: boolean;
  /** The scripted model. */
  script: Script;
  /** The prompt. */
  prompt: string;
  /** Variables for the host. */
  env?: Record<string, string>;
  /** More arguments for the host. */
  args?: string[];
  /** Keys for the `unfold` block of unfold's config after setup. */
  unfold?: Record<string, unknown>;
  /** Runs after setup, before the session (snapshots, approvals in the host's file). */
  prepare?: ((box: { home: string; file: string }) => Promise<void>) | undefined;
}

/** A session's outcome. */
export interface Session {
  /** The host's run. */
  ran: Ran;
  /** The main thread's generation requests (those that offer tools), in order. */
  requests: Request[];
}

/**
 * Runs one session.
 *
 * @param plan What to run.
 * @returns The host's outcome and its requests.
 */
export async function hostSession(plan: SessionPlan): Promise<Session> {
  const api = plan.host === "claude-code" ? ANTHROPIC : plan.host === "codex" ? OPENAI : GEMINI;
  await using proxy = refusingProxy();
  const box = await sandbox({
    HTTP_PROXY: proxy.url,
    HTTPS_PROXY: proxy.url,
    http_proxy: proxy.url,
    https_proxy: proxy.url,
  });
  try {
    await using model = serveModel(api, plan.script);
    await writeHostFile(plan.host, box, model.url, await plan.servers(box));
    const file = hostFile(plan.host, box);
    if (plan.behindUnfold) {
      const setup = await unfold(box, "setup", plan.host);
      if (setup.code !== 0) throw new Error(`unfold setup ${plan.host}: ${setup.stderr}`);
      if (plan.unfold !== undefined) {
        const path = join(box.home, ".config", "unfold", "mcp.json");
        const config = JSON.parse(await Deno.readTextFile(path));
        config.unfold = { ...config.unfold, ...plan.unfold };
        await Deno.writeTextFile(path, JSON.stringify(config, null, 2));
      }
    }
    await plan.prepare?.({ home: box.home, file });
    const ran = await runPrompt(plan.host, box, plan.prompt, {
      env: { ...modelEnv(plan.host, model.url), ...plan.env },
      ...(plan.args === undefined ? {} : { args: plan.args }),
    });
    const requests = model.log.flatMap((entry) =>
      entry.turn === undefined || entry.turn.tools.length === 0
        ? []
        : [{ body: entry.body as Record<string, unknown>, turn: entry.turn }]
    );
    return { ran, requests };
  } finally {
    await Deno.remove(box.home, { recursive: true }).catch(() => {});
  }
}
