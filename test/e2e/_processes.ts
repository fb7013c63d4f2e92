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
  /** The process id of the command started (its children are the deployment's other processes). */
  pid: number;
}

/**
 * Starts `deno task start` with `PORT=0` and waits for the URL it prints (the port the system gave
 * it), then checks that it answers `/healthz`.
 *
 * @param env Extra environment variables.
 * @param cwd The project directory.
 * @returns The running server.
 */
export function startDenoServer(
  env: Record<string, string> = {},
  cwd: string = ROOT,
): Promise<Running> {
  return start(
    [Deno.execPath(), "task", "start"],
    { PORT: "0", ...env },
    (out) => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1],
    cwd,
  );
}

/**
 * Starts `deno task dev` (wrangler dev: a local workerd with Durable Objects) for a config on
 * port 0 and waits for the URL it reports, then checks that it answers `/healthz`.
 *
 * @param config The wrangler.toml path, relative to the repository.
 * @param vars Worker variables, passed as `--var NAME:value`.
 * @param persistTo Where Durable Objects keep their storage; a directory the caller owns (kept
 * after close, so a second Worker started on it finds what the first stored), else a temporary
 * one removed on close.
 * @param extra More arguments for wrangler, after the ones above.
 * @param health The path that must answer 2xx once it is ready (`/` for a Worker whose
 * `/healthz` is another Worker's, which may be missing on purpose).
 * @returns The running Worker.
 */
export async function startWrangler(
  config = "wrangler.toml",
  vars: Record<string, string> = {},
  persistTo?: string,
  extra: readonly string[] = [],
  health = "/healthz",
): Promise<Running> {
  const persist = persistTo ?? await Deno.makeTempDir({ prefix: "unfold-wrangler-" });
  // Each wrangler dev gets its own registry of running Workers: with the machine's shared one, a
  // service binding resolves to whatever Worker of that name another test (or a developer) is
  // running, and a Worker started without its API Worker on purpose found one.
  const registry = await Deno.makeTempDir({ prefix: "unfold-wrangler-registry-" });
  const running = await start(
    [
      // The README's command: deno task dev runs wrangler dev on 127.0.0.1, with these arguments.
      Deno.execPath(),
      "task",
      "dev",
      "--config",
      config,
      "--port",
      "0",
      "--inspector-port",
      "0",
      "--persist-to",
      persist,
      "--show-interactive-dev-session=false",
      ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
      ...extra,
    ],
    { WRANGLER_SEND_METRICS: "false", CI: "true", WRANGLER_REGISTRY_PATH: registry },
    (out) => /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1],
    ROOT,
    health,
  );
  return {
    ...running,
    close: async () => {
      await running.close();
      await Deno.remove(registry, { recursive: true }).catch(() => {});
      if (persistTo === undefined) await Deno.remove(persist, { recursive: true }).catch(() => {});
    },
  };
}

// Starts a command and waits, without polling, until its output names its URL; fails at once if
// it exits first. The server has bound its port before it prints it, so one request then answers.
async function start(
  command: string[],
  env: Record<string, string>,
  ready: (output: string) => string | undefined,
  cwd = ROOT,
  health = "/healthz",
): Promise<Running> {
  const child = new Deno.Command(command[0]!, {
    args: command.slice(1),
    cwd,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  let changed = () => {};
  const decoder = new TextDecoder();
  const pump = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeTo(
      new WritableStream({
        write: (chunk) => {
          output += decoder.decode(chunk, { stream: true });
          changed();
        },
      }),
    ).catch(() => {});
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  let exited = false;
  const status = child.status.then(() => void (exited = true));
  const close = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    // Cleanup only: a server that ignores SIGTERM is killed rather than left running.
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    }, 5000);
    await child.status;
    clearTimeout(timer);
    await pumps;
  };
  let url = ready(output);
  while (url === undefined && !exited) {
    await Promise.race([new Promise<void>((resolve) => changed = resolve), status]);
    url = ready(output);
  }
  if (url !== undefined && !exited) {
    const response = await fetch(`${url}${health}`).catch((e: Error) => e);
    if (response instanceof Response) await response.body?.cancel();
    if (response instanceof Response && response.ok) {
      return { url, output: () => output, close, pid: child.pid };
    }
  }
  await close();
  throw new Error(`${command.slice(0, 4).join(" ")} did not start:\n${output.slice(-3000)}`);
}
