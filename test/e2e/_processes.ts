/**
 * Starts real deployments for end-to-end tests: the Deno server (`deno task start`) and the Worker
 * in a local workerd (`wrangler dev`), each on a free loopback port, and stops them afterwards.
 *
 * @module
 */

const ROOT = new URL("../../", import.meta.url).pathname;

/** A running deployment. */
export interface Running {
  /** Its base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** Everything it printed so far. */
  output: () => string;
  /** Stops it and waits for it to exit. */
  close: () => Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Starts `deno task start` with `PORT=0` and waits for the URL it prints.
 *
 * @param env Extra environment variables.
 * @returns The running server.
 */
export function startDenoServer(env: Record<string, string> = {}): Promise<Running> {
  return start(
    [Deno.execPath(), "task", "start"],
    { PORT: "0", ...env },
    (out) => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1],
    20_000,
  );
}

/**
 * Starts `wrangler dev` (a local workerd with Durable Objects) for a config on a free port and
 * waits until it answers `/healthz`.
 *
 * @param config The wrangler.toml path, relative to the repository.
 * @param vars Worker variables, passed as `--var NAME:value`.
 * @param persistTo Where Durable Objects keep their storage; a directory the caller owns (kept
 * after close, so a second Worker started on it finds what the first stored), else a temporary
 * one removed on close.
 * @returns The running Worker.
 */
export async function startWrangler(
  config = "wrangler.toml",
  vars: Record<string, string> = {},
  persistTo?: string,
): Promise<Running> {
  const port = freePort();
  const persist = persistTo ?? await Deno.makeTempDir({ prefix: "unfold-wrangler-" });
  const running = await start(
    [
      Deno.execPath(),
      "run",
      "-A",
      "npm:wrangler@^4.164.0",
      "dev",
      "--config",
      config,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(freePort()),
      "--persist-to",
      persist,
      "--show-interactive-dev-session=false",
      ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ],
    { WRANGLER_SEND_METRICS: "false", CI: "true" },
    (out) => out.includes("Ready on") ? `http://127.0.0.1:${port}` : undefined,
    90_000,
  );
  return {
    ...running,
    close: async () => {
      await running.close();
      if (persistTo === undefined) await Deno.remove(persist, { recursive: true }).catch(() => {});
    },
  };
}

async function start(
  command: string[],
  env: Record<string, string>,
  ready: (output: string) => string | undefined,
  timeoutMs: number,
): Promise<Running> {
  const child = new Deno.Command(command[0]!, {
    args: command.slice(1),
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  const pump = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeTo(
      new WritableStream({
        write: (chunk) => void (output += decoder.decode(chunk, { stream: true })),
      }),
    ).catch(() => {});
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const close = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    }, 5000);
    await child.status;
    clearTimeout(timer);
    await pumps;
  };
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.status.then(() => exited = true);
  while (Date.now() < deadline && !exited) {
    const url = ready(output);
    if (url !== undefined && await answers(url)) return { url, output: () => output, close };
    await new Promise((r) => setTimeout(r, 200));
  }
  await close();
  throw new Error(`${command.slice(0, 4).join(" ")} did not start:\n${output.slice(-3000)}`);
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
