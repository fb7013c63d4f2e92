/**
 * `unfold login` (Deno): signs in to one Streamable HTTP server of a config with the OAuth
 * authorization code flow, the browser coming back to a loopback server on 127.0.0.1, and
 * stores the tokens where the gateway finds them. A failed sign-in leaves the stored one as it
 * was.
 *
 * @module
 */

import { within } from "../utils/deadline.ts";
import type { GatewayConfig, HttpUpstream } from "../gateway/config/parse.ts";
import { connectOAuth } from "../mcp/oauth/connect.ts";
import { fileOAuthStore, oauthRecordPath, unfoldConfigDir } from "../mcp/oauth/file_store.ts";
import { StoredOAuthProvider } from "../mcp/oauth/provider.ts";
import { memoryOAuthStore } from "../mcp/oauth/store.ts";
import type { Result } from "../result.ts";

/** How long `unfold login` waits for the browser to come back, by default: five minutes. */
export const LOGIN_TIMEOUT_MS = 300_000;

/** Options of {@linkcode login}. */
export interface LoginOptions {
  /** The parsed config. */
  config: GatewayConfig;
  /** The config file's path (for messages). */
  configPath: string;
  /** The server to sign in to. */
  server: string;
  /** Whether to try opening a browser (`--no-browser` says no). */
  browser: boolean;
  /**
   * How long to wait for the browser to come back, in milliseconds.
   * @default {LOGIN_TIMEOUT_MS}
   */
  timeoutMs?: number;
  /**
   * The loopback port the browser comes back to (for a server that registers a fixed redirect
   * URL); 0 takes any free one.
   * @default {0}
   */
  callbackPort?: number;
  /** The environment (where the config directory is). */
  env: Readonly<Record<string, string | undefined>>;
  /** Shows a line to the user (the URL to open; stderr in the CLI). */
  print: (line: string) => void;
  /**
   * Opens a URL in a browser; answers whether it could.
   * @default {the system's opener: xdg-open, open or rundll32}
   */
  openBrowser?: (url: string) => Promise<boolean>;
}

/**
 * Signs in to one server and stores its tokens.
 *
 * @param options The config, the server and how to reach the user.
 * @returns The line to show on success, or what went wrong.
 *
 * @example A server that is not in the config
 * ```ts
 * import { login } from "./login.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const result = await login({ config: { servers: [], options: { pinned: [] } }, configPath: "mcp.json", server: "gh", browser: false, env: {}, print: () => {} });
 * deepEqual(result, { ok: false, error: 'Cannot sign in to "gh": mcp.json has no server "gh"' });
 * ```
 */
export async function login(
  options: LoginOptions,
): Promise<Result<string, string>> {
  const { server: name, configPath } = options;
  const fail = (why: string) => ({
    ok: false as const,
    error: `Cannot sign in to ${JSON.stringify(name)}: ${why}`,
  });
  const upstream = options.config.servers.find((s) => s.server === name);
  if (upstream === undefined) {
    return fail(`${configPath} has no server ${JSON.stringify(name)}`);
  }
  if (!("url" in upstream)) {
    return fail('it is a stdio server; OAuth sign-in is for Streamable HTTP servers (a "url")');
  }
  if (Object.keys(upstream.headers).some((header) => header.toLowerCase() === "authorization")) {
    return fail(
      "its entry sends its own Authorization header, which takes the place of OAuth; remove it to sign in",
    );
  }
  let dir: string;
  try {
    dir = unfoldConfigDir(options.env);
  } catch (error) {
    return fail((error as Error).message);
  }
  const callback = Promise.withResolvers<URL>();
  let expectedState: () => string | undefined = () => undefined;
  const port = options.callbackPort ?? 0;
  let loopback: Deno.HttpServer<Deno.NetAddr>;
  try {
    loopback = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, answer);
  } catch (error) {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    return fail(
      `cannot wait for the sign-in on 127.0.0.1:${port}: the port is in use; choose another with --callback-port (0 takes any free one)`,
    );
  }
  function answer(request: Request): Response {
    const url = new URL(request.url);
    if (url.pathname !== "/callback") return new Response("Not found\n", { status: 404 });
    // A page that guesses the port must not end the sign-in: only our own state counts.
    if (url.searchParams.get("state") !== expectedState()) {
      return new Response("This is not the sign-in unfold is waiting for.\n", { status: 400 });
    }
    callback.resolve(url);
    return new Response(
      "<!doctype html><title>unfold</title><p>Signed in. You can close this tab.",
      {
        headers: { "content-type": "text/html; charset=utf-8" },
      },
    );
  }
  try {
    const memory = memoryOAuthStore();
    const provider = new StoredOAuthProvider({
      server: name,
      url: upstream.url,
      store: memory,
      redirectUrl: `http://127.0.0.1:${loopback.addr.port}/callback`,
      ...(upstream.oauth === undefined ? {} : { settings: upstream.oauth }),
    });
    expectedState = () => provider.expectedState;
    const timeoutMs = options.timeoutMs ?? LOGIN_TIMEOUT_MS;
    const authorize = async (authorizationUrl: URL): Promise<URL> => {
      options.print(`Open this URL to sign in to ${JSON.stringify(name)}:\n${authorizationUrl}`);
      if (
        options.browser && !(await (options.openBrowser ?? openBrowser)(String(authorizationUrl)))
      ) {
        options.print("Could not open a browser: open the URL above yourself");
      }
      const waited = await within(callback.promise, timeoutMs);
      if (!waited.ok) throw new LoginError(`no sign-in came back within ${timeoutMs / 1000} s`);
      return waited.value;
    };
    const result = await signIn(upstream, provider, authorize, timeoutMs);
    if (!result.ok) return fail(result.error);
    const record = await memory.read();
    if (record?.tokens === undefined) {
      return {
        ok: true,
        value: `${JSON.stringify(name)} did not ask for a sign-in: nothing stored`,
      };
    }
    await fileOAuthStore(dir, name, upstream.url).write(record);
    return {
      ok: true,
      value: `Signed in to ${JSON.stringify(name)}; tokens saved in ${await oauthRecordPath(
        dir,
        name,
        upstream.url,
      )}`,
    };
  } finally {
    await loopback.shutdown();
  }
}

class LoginError extends Error {}

// What the handshake may take besides the user's time in the browser.
const HANDSHAKE_MS = 60_000;

async function signIn(
  upstream: HttpUpstream,
  provider: StoredOAuthProvider,
  authorize: (url: URL) => Promise<URL>,
  timeoutMs: number,
): Promise<Result<undefined, string>> {
  try {
    const connection = await connectOAuth(
      { server: upstream.server, url: upstream.url, headers: upstream.headers },
      { provider, authorize, eager: true },
      // The handshake waits while the user signs in: its timeout must outlast the sign-in's.
      { versionNegotiation: "auto", requestTimeoutMs: timeoutMs + HANDSHAKE_MS },
    );
    await connection.close();
    return { ok: true, value: undefined };
  } catch (error) {
    // The transport wraps what failed; say the innermost reason we wrote ourselves.
    let current: unknown = error;
    for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
      if (current instanceof LoginError) return { ok: false, error: current.message };
      current = current.cause;
    }
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

// The system's way to open a URL; false when there is none (a server, a container).
async function openBrowser(url: string): Promise<boolean> {
  const [command, ...args] = Deno.build.os === "darwin"
    ? ["open", url]
    : Deno.build.os === "windows"
    ? ["rundll32", "url.dll,FileProtocolHandler", url]
    : ["xdg-open", url];
  try {
    const child = new Deno.Command(command!, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    return (await child.status).success;
  } catch {
    return false;
  }
}
