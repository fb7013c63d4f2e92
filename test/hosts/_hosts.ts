/**
 * The real MCP hosts the tests drive, pinned: Claude Code, Codex CLI and Gemini CLI from npm,
 * installed once into a cache folder outside the repository (`$UNFOLD_TEST_HOSTS`, else
 * `$XDG_CACHE_HOME/unfold/test-hosts`, else `~/.cache/unfold/test-hosts`), one folder per set of
 * versions. `.ci/run` installs them before the tests (`deno run -A test/hosts/_hosts.ts`); a test
 * that finds them missing installs them itself, under a lock, so two test files never race.
 *
 * Every run of a host gets its own `HOME` (see {@linkcode hostEnv}): nothing leaves the machine.
 *
 * @module
 */

import { join } from "node:path";

/** The hosts, their npm packages and the versions the tests were measured with. */
export const HOSTS = {
  "claude-code": { pkg: "@anthropic-ai/claude-code", version: "2.1.197", bin: "claude" },
  codex: { pkg: "@openai/codex", version: "0.169.0", bin: "codex" },
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
} as const;

/** A host the tests drive. */
export type HostName = keyof typeof HOSTS;

/** The cache folder holding this set of versions. */
export function hostsDir(): string {
  const base = Deno.env.get("UNFOLD_TEST_HOSTS") ??
    join(
      Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache"),
      "unfold",
      "test-hosts",
    );
  const set = Object.values(HOSTS).map((h) => `${h.bin}-${h.version}`).join("_");
  return join(base, set);
}

function binPath(host: HostName): string {
  return join(hostsDir(), "node_modules", ".bin", HOSTS[host].bin);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function installed(): Promise<boolean> {
  for (const host of Object.keys(HOSTS) as HostName[]) {
    if (!await exists(binPath(host))) return false;
  }
  return await exists(join(hostsDir(), "installed"));
}

/**
 * Installs the pinned hosts when they are missing (npm, about 50 s and 740 MB once), under a lock
 * file beside the folder, so concurrent callers wait for one install.
 *
 * @returns The folder holding `node_modules/.bin/{claude,codex,gemini}`.
 * @throws {Error} When npm fails; its output is in the message.
 */
export async function ensureHosts(): Promise<string> {
  const dir = hostsDir();
  if (await installed()) return dir;
  await Deno.mkdir(dir, { recursive: true });
  const lock = await Deno.open(join(dir, ".lock"), { create: true, write: true });
  try {
    await lock.lock(true);
    if (await installed()) return dir;
    const packages = Object.values(HOSTS).map((h) => `${h.pkg}@${h.version}`);
    const out = await new Deno.Command("npm", {
      args: ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, ...packages],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      const text = new TextDecoder().decode(out.stderr).slice(-4000);
      throw new Error(`npm could not install the test hosts into ${dir}:\n${text}`);
    }
    await Deno.writeTextFile(join(dir, "installed"), packages.join("\n") + "\n");
    return dir;
  } finally {
    await lock.unlock().catch(() => {});
    lock.close();
  }
}

/**
 * The path of a host's command, installing the hosts first when they are missing.
 *
 * @param host Which host.
 * @returns The absolute path of its executable.
 */
export async function hostBin(host: HostName): Promise<string> {
  await ensureHosts();
  return binPath(host);
}

/**
 * An environment for one run of a host: its own `HOME` (and XDG folders) under `home`, every
 * update check, telemetry and error report off, and any traffic not for loopback sent to a proxy
 * address that refuses it.
 *
 * @param home A fresh folder for this run.
 * @param extra Variables to add (a model API's base URL, a key).
 * @returns The variables, with `PATH` kept so the host finds `node` and `deno`.
 */
export function hostEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const refuse = "http://127.0.0.1:9";
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    HTTP_PROXY: refuse,
    HTTPS_PROXY: refuse,
    http_proxy: refuse,
    https_proxy: refuse,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DENO_NO_UPDATE_CHECK: "1",
    GEMINI_CLI_TRUST_WORKSPACE: "true",
    ...extra,
  };
}

if (import.meta.main) {
  const dir = await ensureHosts();
  // deno-lint-ignore no-console
  console.log(`test hosts ready in ${dir}`);
}
