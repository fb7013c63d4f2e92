/**
 * Runs the Deno that runs the tests as a child process, and stops long-running children: the one
 * way the tests start `deno` commands and servers.
 *
 * @module
 */

/** The repository's root directory, with a trailing slash. */
import { PASSED_ENV_VARS } from "../src/gateway/config/environment.ts";
export const ROOT: string = new URL("..", import.meta.url).pathname;

/**
 * Clones the repository's committed state into a new folder, beside an empty `cache` folder: a
 * user's fresh clone, for the tests of what the README promises on one.
 *
 * @param temp The folder to clone into (as `unfold`).
 * @returns The clone's path.
 */
export async function cloneRepo(temp: string): Promise<string> {
  const repo = `${temp}/unfold`;
  const clone = await new Deno.Command("git", {
    args: ["clone", "--quiet", ROOT, repo],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!clone.success) throw new Error(new TextDecoder().decode(clone.stderr));
  await Deno.mkdir(`${temp}/cache`);
  return repo;
}

/** What a finished command left: its exit code and its output as text. */
export interface DenoRun {
  /** The exit code. */
  code: number;
  /** Everything it printed on stdout. */
  stdout: string;
  /** Everything it printed on stderr. */
  stderr: string;
}

/**
 * Runs `deno` with these arguments until it exits, with no standard input.
 *
 * @param args The arguments after `deno`.
 * @param options The working directory (default: the repository) and extra environment.
 * @returns Its exit code and output.
 */
export async function runDeno(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<DenoRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...args],
    cwd: options.cwd ?? ROOT,
    ...(options.env === undefined ? {} : { env: options.env }),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

/**
 * Starts a server process whose log on stderr tells when it is ready (stdout is discarded).
 *
 * @param command The program.
 * @param args Its arguments.
 * @param env Its extra environment.
 * @returns The child and a reader of its log.
 */
export function spawnLogged(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
): { child: Deno.ChildProcess; lines: ReadableStreamDefaultReader<string> } {
  const child = new Deno.Command(command, {
    args: [...args],
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  return { child, lines: child.stderr.pipeThrough(new TextDecoderStream()).getReader() };
}

/**
 * Keeps reading a started child's log, so that it never blocks on a full pipe, and gives the one
 * way to stop it: SIGTERM, then wait for it to exit and its log to end. Stopping twice is stopping
 * once.
 *
 * @param child The child process.
 * @param lines The reader of the log it writes (already past its start-up lines).
 * @returns The stop function.
 */
export function stopper(
  child: Deno.ChildProcess,
  lines: ReadableStreamDefaultReader<string>,
): () => Promise<void> {
  const drained = (async () => {
    while (!(await lines.read()).done) { /* discard */ }
  })().catch(() => {});
  let stopped: Promise<void> | undefined;
  return () =>
    stopped ??= (async () => {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await drained;
    })();
}

/**
 * The lines a started child writes on its log, kept as they come, with a wait for one: the
 * event a test waits on instead of asking the child again and again.
 */
export class ChildLog {
  /** Every complete line so far. */
  readonly lines: string[] = [];
  /** Resolves once the log has ended (the child closed it, or exited). */
  readonly ended: Promise<void>;
  #event = Promise.withResolvers<void>();
  #done = false;

  /**
   * Starts reading.
   *
   * @param reader The reader of the log (text chunks), past what was read before.
   * @param seen Text read before, from the start of a line.
   */
  constructor(reader: ReadableStreamDefaultReader<string>, seen = "") {
    this.ended = (async () => {
      let buffered = seen;
      for (;;) {
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        if (lines.length > 0) this.#add(lines);
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value;
      }
      if (buffered !== "") this.#add([buffered]);
    })().catch(() => {}).finally(() => {
      this.#done = true;
      this.#event.resolve();
    });
  }

  /** Whether the log has ended. */
  get done(): boolean {
    return this.#done;
  }

  /** Resolves at the next line, or when the log ends. */
  next(): Promise<void> {
    return this.#event.promise;
  }

  #add(lines: string[]): void {
    this.lines.push(...lines);
    this.#event.resolve();
    this.#event = Promise.withResolvers();
  }

  /**
   * Waits for a line that matches: at once when one came already, else at the first that does.
   *
   * @param pattern What the line matches.
   * @param ms The longest wait (an upper bound only: the wait ends on the line; generous, so that
   * a loaded machine never reaches it).
   * @returns The line.
   * @throws {Error} When the log ends, or the time passes, before such a line.
   */
  async line(pattern: RegExp, ms = 60_000): Promise<string> {
    const { promise: bound, resolve } = Promise.withResolvers<"timeout">();
    const timer = setTimeout(() => resolve("timeout"), ms);
    try {
      for (let seen = 0;;) {
        const next = this.#event.promise;
        const found = this.lines.slice(seen).find((line) => pattern.test(line));
        if (found !== undefined) return found;
        seen = this.lines.length;
        if (this.#done) throw new Error(`the log ended before a line ${pattern}`);
        if ((await Promise.race([next, bound])) === "timeout") {
          throw new Error(`timed out waiting for a line ${pattern}:\n${this.lines.join("\n")}`);
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * A user's machine as a fresh-clone test sets it up: of this process's environment, only the
 * proxy and certificate variables unfold passes on (and any other `names`), as a new machine
 * behind the same network has them; the caller adds its own HOME, DENO_DIR and the like.
 *
 * @param names Other variables to keep when set (`PATH`).
 * @returns The variables.
 */
export function machineEnv(names: readonly string[] = []): Record<string, string> {
  return Object.fromEntries(
    [...PASSED_ENV_VARS, ...names].flatMap((name) => {
      const value = Deno.env.get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}
