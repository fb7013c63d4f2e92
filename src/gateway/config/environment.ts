/**
 * What the gateway's configuration and its stdio upstreams see of the environment: `${CONFIG_DIR}`
 * is the config file's folder, so a config can name files beside it from any working directory;
 * and an upstream gets, besides the MCP SDK's safe default set (`HOME`, `PATH`, …) and its own
 * `env`, the proxy and certificate variables, without which a server behind a corporate proxy or
 * TLS inspection cannot reach anything, and `DENO_DIR`, so a server run by `deno` uses the user's
 * module cache.
 *
 * @module
 */

import type { UpstreamConfig } from "./parse.ts";

/** The variables passed on to every stdio upstream when they are set, in both cases. */
export const PASSED_ENV_VARS: readonly string[] = Object.freeze([
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  // A server run by `deno` shares the user's module cache instead of filling a second one.
  "DENO_DIR",
  // The gateway's own start is kept off the network (`RUN_ENV`): so is a server run by `deno`.
  "DENO_NO_UPDATE_CHECK",
]);

/**
 * The environment `${VAR}` reads in a config file: the process's, with `CONFIG_DIR` set to the
 * absolute folder of the file (it always wins, so a config means the same wherever it is run).
 *
 * @param env The process's environment.
 * @param configPath The config file's path, relative to `cwd` or absolute.
 * @param cwd The working directory a relative path is read from.
 * @returns The environment for `parseGatewayConfig`.
 *
 * @example Usage
 * ```ts
 * import { configEnvironment } from "./environment.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(configEnvironment({}, "conf/mcp.json", "/home/me").CONFIG_DIR, "/home/me/conf");
 * equal(configEnvironment({}, "/etc/unfold/mcp.json", "/tmp").CONFIG_DIR, "/etc/unfold");
 * ```
 */
export function configEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  configPath: string,
  cwd: string,
): Record<string, string | undefined> {
  return { ...env, CONFIG_DIR: folderOf(absolute(configPath, cwd)) };
}

/**
 * The upstreams with the proxy and certificate variables of `env` added to each stdio server's
 * own `env` (which wins where both set one).
 *
 * @param servers The configured upstreams.
 * @param env The gateway's environment.
 * @returns The same upstreams, stdio ones with the passed variables.
 *
 * @example Usage
 * ```ts
 * import { withPassedEnvironment } from "./environment.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const [server] = withPassedEnvironment(
 *   [{ server: "a", command: "a", args: [], env: { X: "1" } }],
 *   { NODE_EXTRA_CA_CERTS: "/ca.pem", SECRET: "no" },
 * );
 * deepEqual(server, { server: "a", command: "a", args: [], env: { NODE_EXTRA_CA_CERTS: "/ca.pem", X: "1" } });
 * ```
 */
export function withPassedEnvironment(
  servers: readonly UpstreamConfig[],
  env: Readonly<Record<string, string | undefined>>,
): UpstreamConfig[] {
  const passed: Record<string, string> = {};
  for (const name of PASSED_ENV_VARS) {
    const value = env[name];
    if (value !== undefined && value !== "") passed[name] = value;
  }
  return servers.map((server) =>
    "command" in server ? { ...server, env: { ...passed, ...server.env } } : server
  );
}

function absolute(path: string, cwd: string): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\")) return path;
  return `${cwd.replace(/[\\/]+$/, "")}/${path}`;
}

// The folder part of a path, separators of either platform; "." and ".." segments are left for
// the operating system to resolve.
function folderOf(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (cut <= 0) return cut === 0 ? "/" : ".";
  return path.slice(0, cut);
}
