/**
 * The config a command runs on, from `--config` or unfold's own: read, taken as the host file it
 * may be (`host_files.ts`), and parsed. Every way it can fail is one line for stderr.
 *
 * @module
 */

import { readRegularFile } from "../utils/regular_file.ts";
import {
  type AwaitingVariables,
  type GatewayConfig,
  type InvalidEntry,
  parseGatewayConfig,
  refusedEntry,
} from "../gateway/config/parse.ts";
import { configEnvironment } from "../gateway/config/environment.ts";
import { ownRecord } from "../utils/record.ts";
import { readPlainHostFile } from "./hosts/entries.ts";
import type { Args } from "./args.ts";
import { commandSpan, unfoldCommand } from "./hints.ts";
import { HOST_NAMES } from "./hosts/known.ts";
import type { Result } from "../result.ts";

// The largest config read: an `mcpServers` file of hundreds of servers is a few hundred KB.
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * Reads and parses the command's config.
 *
 * @param args The command line (`config`, and whether it was given).
 * @param env The environment (`${VAR}` in the config reads it).
 * @param log Says what was left out of a host's file, once.
 * @returns The config, or the line that says why there is none. A server or profile that names
 * a variable not set is in `awaiting`, a server entry or profile that cannot be read in `invalid`:
 * {@linkcode unsetProblem} says whether the command needs it.
 */
export async function readConfigFile(
  args: Pick<Args, "config" | "configGiven">,
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
): Promise<Result<GatewayConfig, string>> {
  const path = args.config;
  // A pipe, a device or a folder given as the config is refused in one line, never waited on.
  const read = await readRegularFile(path, MAX_CONFIG_BYTES);
  if (!read.ok) {
    const why = read.code === "not_found"
      ? `no such file${
        args.configGiven
          ? ""
          : `; run ${commandSpan(unfoldCommand("setup", "HOST"))} (HOST: ${
            HOST_NAMES.join(", ")
          }) or give --config FILE`
      }`
      : read.reason === "it is a folder"
      ? "it is a folder; give the config file in it"
      : read.reason;
    return { ok: false, error: `cannot read the config ${JSON.stringify(path)}: ${why}` };
  }
  const text = read.text;
  // A host's own file is read as it is: its other keys are left out, and said once. The JSONC
  // and TOML readers load only for a file that needs them (they cost the start ~60 ms, ~9 MiB).
  const hostFile = readPlainHostFile(text, path) ??
    (await import("./hosts/files.ts")).readHostFile(text, path);
  if (!hostFile.ok) return { ok: false, error: `${path}: ${hostFile.error}` };
  if (hostFile.value.ignored.length > 0) {
    log(`${path}: leaving out ${hostFile.value.ignored.join(", ")} (not unfold's)`);
  }
  // One config holds every host's servers (`unfold setup`): a variable only one host sets fails
  // only the commands that serve what names it.
  const parsed = parseGatewayConfig(
    hostFile.value.config,
    // Variables are looked up by the names a config chose: `${toString}` is a variable, never
    // Object.prototype's member.
    ownRecord(configEnvironment(env, path, Deno.cwd())),
    // A server entry (or profile) that cannot be read is that server's too: set aside, listed.
    { deferUnset: true, contain: true },
  );
  if (!parsed.ok) return { ok: false, error: `${path}: ${parsed.error.message}` };
  const { refused, config } = hostFile.value;
  if (refused.length === 0) return parsed;
  // A host's entry only the host can use is set aside as a bad entry is, in the order of the file.
  const order = Object.keys((config as { mcpServers: Record<string, unknown> }).mcpServers);
  const place = (entry: InvalidEntry) =>
    entry.kind === "server" ? order.indexOf(entry.name) : order.length;
  const invalid = [
    ...refused.map((entry) => refusedEntry(entry.server, entry.path, entry.problem)),
    ...parsed.value.invalid ?? [],
  ].sort((a, b) => place(a) - place(b));
  return { ok: true, value: { ...parsed.value, invalid } };
}

/**
 * The line a command fails with when something it serves names a variable that is not set, or
 * is a server or a profile whose entry cannot be read: the first such in the file, said as the
 * whole config failed before (`invalid`'s or `awaiting`'s error).
 *
 * @param path The config's path.
 * @param config The config as read.
 * @param serves Whether the command serves a server or a profile (its tokens).
 * @returns The line, or `undefined` when all it serves is there.
 */
export function unsetProblem(
  path: string,
  config: GatewayConfig,
  serves: (entry: Pick<AwaitingVariables, "kind" | "name">) => boolean,
): string | undefined {
  const first = config.invalid?.find(serves) ?? config.awaiting?.find(serves);
  return first === undefined ? undefined : `${path}: ${first.error.message}`;
}
