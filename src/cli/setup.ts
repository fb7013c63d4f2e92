/**
 * `unfold setup HOST`: moves a host's MCP servers into unfold's own config, under a profile named
 * for the host (so each host keeps exactly its servers), and leaves one `unfold` entry in the
 * host's file that starts the gateway for that profile. The host's original bytes are kept, so
 * `--undo` puts them back; `--dry-run` prints both files' changes; a second run changes nothing.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { isDeepStrictEqual } from "node:util";
import { dirname, join, resolve } from "node:path";
import { createTwoFilesPatch } from "diff";
import { parseGatewayConfig } from "../gateway/config/parse.ts";
import { hostFormat, readHostFile } from "./hosts/files.ts";
import { closest } from "../gateway/config/profiles.ts";
import { HOST_NAMES, HOSTS, type HostSpec } from "./hosts/known.ts";
import { withOnlyEntry } from "./hosts/edit.ts";
import { unfoldCommand } from "./hints.ts";
import { RUN_FLAGS } from "./run_flags.ts";
import { readRegularBytes, readRegularFile } from "../utils/regular_file.ts";

// The largest host file read: hosts' settings files are a few KB (Claude Desktop's, VS Code's).
const MAX_HOST_FILE_BYTES = 4 * 1024 * 1024;

/** What `unfold setup` is asked to do. */
export interface SetupOptions {
  /** The host's name (`claude-desktop`, `vscode`, ...). */
  host: string;
  /** `--file`: the host's file, else its usual place. */
  file?: string;
  /** unfold's own config. */
  config: string;
  /** Whether the config was named (`--config`), so the undo hint names it too. */
  configGiven?: boolean;
  /** `--dry-run`. */
  dryRun: boolean;
  /** `--undo`. */
  undo: boolean;
  /** The environment (home, PATH, config folders). */
  env: Readonly<Record<string, string | undefined>>;
  /** Prints a line for the user (stdout). */
  print(line: string): void;
  /** Prints a mistake (stderr). */
  error(line: string): void;
}

/** The name of unfold's entry in a host's file. */
export const ENTRY_NAME = "unfold";

/**
 * Runs `unfold setup`.
 *
 * @param options What to set up, where, and how to print.
 * @returns The exit code: 0 done (or nothing to do), 1 a file that cannot be used, 2 an unknown
 *   host.
 */
export async function setup(options: SetupOptions): Promise<number> {
  const { host, env, print, error } = options;
  const spec = HOSTS[host];
  if (spec === undefined) {
    error(
      `unfold: unknown host ${host}${closest(host, HOST_NAMES)} (hosts: ${HOST_NAMES.join(", ")})`,
    );
    return 2;
  }
  const file = resolve(options.file ?? spec.path(env, Deno.build.os));
  const config = resolve(options.config);
  const backup = join(dirname(config), "setup", `${host}.backup.json`);
  const fail = (line: string) => (error(`unfold: ${line}`), 1);
  if (options.undo) return await undo(host, config, backup, options);
  let hostText: string;
  try {
    hostText = await readOrEmpty(file);
  } catch (e) {
    return fail((e as Error).message);
  }
  // No file yet (or an empty one): a host with no servers.
  const empty = hostText.trim() === "" && hostFormat(file) === "json";
  const read = readHostFile(empty ? "{}" : hostText, file);
  if (!read.ok) return fail(`${file}: ${read.error}`);
  const found = read.value.config as { mcpServers?: Record<string, Record<string, unknown>> };
  if (typeof found !== "object") {
    return fail(`${file}: is not JSON: fix it or give another file with --file`);
  }
  const moved = Object.entries(found.mcpServers ?? {}).filter(([name]) => name !== ENTRY_NAME);
  let unfoldText: string;
  let unfold: Record<string, unknown>;
  try {
    unfoldText = await readOrEmpty(config);
    unfold = unfoldText.trim() === "" ? { mcpServers: {} } : JSON.parse(unfoldText);
  } catch (e) {
    return fail(
      e instanceof SyntaxError ? `${config}: not JSON (${e.message})` : (e as Error).message,
    );
  }
  const merged = merge(unfold, host, moved);
  // Checked as the gateway will read it, except for variables that the host's environment,
  // not this shell's, may set.
  const anyVariable = new Proxy({ ...env }, { get: (vars, name) => vars[name as string] ?? "set" });
  const checked = parseGatewayConfig(merged, anyVariable);
  if (!checked.ok) return fail(`${config} would be invalid: ${checked.error.message}`);
  const entry = gatewayEntry(spec, config, host, env);
  const newHost = withOnlyEntry(hostText, file, spec.serversKey, ENTRY_NAME, entry);
  if (!newHost.ok) return fail(`${file} ${newHost.error}`);
  const newUnfold = `${JSON.stringify(merged, null, 2)}\n`;
  const changes = [[config, unfoldText, newUnfold], [file, hostText, newHost.value]] as const;
  if (changes.every(([, before, after]) => before === after)) {
    print(`${spec.label} already starts unfold (${file}): nothing to change`);
    return 0;
  }
  if (options.dryRun) {
    for (const [path, before, after] of changes) {
      if (before !== after) print(createTwoFilesPatch(path, path, before, after).trimEnd());
    }
    print("Dry run: nothing was written.");
    return 0;
  }
  // The host's bytes from before the first setup are the ones --undo restores.
  if (!(await exists(backup))) {
    const read = await readRegularBytes(file, MAX_HOST_FILE_BYTES);
    if (!read.ok && read.code !== "not_found") return fail(`cannot read ${file}: ${read.reason}`);
    const saved = { file, bytes: read.ok ? Buffer.from(read.bytes).toString("base64") : undefined };
    await write(backup, JSON.stringify(saved));
  }
  await write(config, newUnfold);
  await write(file, newHost.value);
  const names = moved.map(([name]) => name);
  print(
    `Moved ${names.length} server${names.length === 1 ? "" : "s"}${
      names.length === 0 ? "" : ` (${names.join(", ")})`
    } from ${file} into ${config}, profile ${host}; ${spec.label} now starts unfold. ` +
      `Restart ${spec.label}. To undo: ${
        unfoldCommand("setup", host, ...(options.configGiven ? ["--config", config] : []), "--undo")
      }`,
  );
  return 0;
}

// unfold's config with the host's servers added and a profile naming exactly them. A name that
// another host uses for a different server gets the host's name in front.
function merge(
  unfold: Record<string, unknown>,
  host: string,
  moved: readonly [string, Record<string, unknown>][],
): Record<string, unknown> {
  const servers = { ...(unfold.mcpServers as Record<string, unknown> ?? {}) };
  const block = { ...(unfold.unfold as Record<string, unknown> ?? {}) };
  const profiles = { ...(block.profiles as Record<string, { servers?: string[] }> ?? {}) };
  const mine = [...(profiles[host]?.servers ?? [])];
  for (const [name, entry] of moved) {
    let id = name;
    for (let n = 1; id in servers && !isDeepStrictEqual(servers[id], entry); n++) {
      id = n === 1 ? `${host}-${name}` : `${host}-${name}-${n}`;
    }
    servers[id] = entry;
    if (!mine.includes(id)) mine.push(id);
  }
  profiles[host] = { ...profiles[host], servers: mine };
  return { ...unfold, mcpServers: servers, unfold: { ...block, profiles } };
}

/**
 * The host's entry: the installed `unfold` when it is on the PATH, else this Deno running this
 * CLI, with unfold's config and the host's profile (absolute paths: hosts start servers from
 * their own folder, often without the user's shell PATH).
 */
function gatewayEntry(
  spec: HostSpec,
  config: string,
  host: string,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, unknown> {
  const gateway = ["gateway", "--config", config, "--profile", host];
  const installed = onPath("unfold", env);
  const main = new URL("./main.ts", import.meta.url);
  const denoConfig = main.protocol === "file:"
    ? ["--config", new URL("../../deno.json", import.meta.url).pathname]
    : [];
  return {
    ...(spec.stdioType === undefined ? {} : { type: spec.stdioType }),
    ...(installed !== undefined ? { command: installed, args: gateway } : {
      command: Deno.execPath(),
      args: [
        "run",
        ...RUN_FLAGS,
        ...denoConfig,
        main.protocol === "file:" ? main.pathname : main.href,
        ...gateway,
      ],
    }),
  };
}

function onPath(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const windows = Deno.build.os === "windows";
  for (const dir of (env.PATH ?? env.Path ?? "").split(windows ? ";" : ":")) {
    if (dir === "") continue;
    for (const candidate of windows ? [`${name}.cmd`, `${name}.exe`] : [name]) {
      const path = join(dir, candidate);
      try {
        if (Deno.statSync(path).isFile) return path;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

async function undo(
  host: string,
  config: string,
  backup: string,
  { print, error }: SetupOptions,
): Promise<number> {
  let saved: { file: string; bytes?: string };
  try {
    const read = await readRegularFile(backup, 4 * MAX_HOST_FILE_BYTES);
    if (!read.ok) throw new Error(read.reason);
    saved = JSON.parse(read.text);
  } catch {
    error(`unfold: nothing to undo for ${host}: no backup at ${backup}`);
    return 1;
  }
  if (saved.bytes === undefined) await Deno.remove(saved.file).catch(() => {});
  else await write(saved.file, Buffer.from(saved.bytes, "base64"));
  const text = await readOrEmpty(config).catch((e: Error) => {
    error(`unfold: ${e.message}; the host's file was restored`);
    return "";
  });
  if (text.trim() !== "") {
    const unfold = JSON.parse(text);
    const profiles = unfold.unfold?.profiles ?? {};
    const mine: string[] = profiles[host]?.servers ?? [];
    delete profiles[host];
    const used = new Set(
      Object.values(profiles).flatMap((p) => (p as { servers?: string[] }).servers ?? []),
    );
    for (const name of mine) if (!used.has(name)) delete unfold.mcpServers?.[name];
    await write(config, `${JSON.stringify(unfold, null, 2)}\n`);
  }
  await Deno.remove(backup);
  print(`Restored ${saved.file}; removed profile ${host} from ${config}`);
  return 0;
}

async function readOrEmpty(path: string): Promise<string> {
  const read = await readRegularFile(path, MAX_HOST_FILE_BYTES);
  if (read.ok) return read.text;
  if (read.code === "not_found") return "";
  throw new Error(`cannot read ${path}: ${read.reason}`);
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

// Written whole or not at all (a host reading its file never sees half of it), keeping the
// file's mode; a new file is the user's alone (it may hold the servers' keys).
async function write(path: string, data: string | Uint8Array): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const mode = (await Deno.stat(path).catch(() => undefined))?.mode ?? 0o600;
  const temp = `${path}.unfold-${crypto.randomUUID()}`;
  if (typeof data === "string") await Deno.writeTextFile(temp, data, { mode });
  else await Deno.writeFile(temp, data, { mode });
  await Deno.chmod(temp, mode & 0o7777).catch(() => {}); // no modes on Windows
  await Deno.rename(temp, path);
}
