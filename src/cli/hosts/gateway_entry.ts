/**
 * The entry `unfold setup` leaves in a host's file: it starts the installed `unfold` when it is on
 * the PATH, else this Deno running this CLI, with unfold's config and the host's profile (absolute
 * paths: hosts start servers from their own folder, often without the user's shell PATH), and
 * `DENO_NO_UPDATE_CHECK=1`, so no start of the gateway asks Deno's servers for an update.
 *
 * @module
 */

import { join } from "node:path";
import { RUN_FLAGS } from "../run_flags.ts";
import type { Env, HostSpec } from "./known.ts";
import { isRecord } from "../../utils/record.ts";

/** The name of unfold's entry in a host's file. */
export const ENTRY_NAME = "unfold";

/** The environment every entry that starts the gateway sets. */
export const ENTRY_ENV: Readonly<Record<string, string>> = { DENO_NO_UPDATE_CHECK: "1" };

/**
 * The entry that starts the gateway for a host's profile.
 *
 * @param spec The host.
 * @param config unfold's config (absolute).
 * @param profile The profile.
 * @param env The environment (its PATH is searched for `unfold`).
 * @returns The entry, in the host's words.
 */
export function gatewayEntry(
  spec: HostSpec,
  config: string,
  profile: string,
  env: Env,
): Record<string, unknown> {
  const gateway = ["gateway", "--config", config, "--profile", profile];
  const installed = onPath("unfold", env);
  const main = new URL("../main.ts", import.meta.url);
  const denoConfig = main.protocol === "file:"
    ? ["--config", new URL("../../../deno.json", import.meta.url).pathname]
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
    env: { ...ENTRY_ENV },
  };
}

/**
 * Whether a host's entry is one setup wrote: it runs `gateway --config CONFIG --profile PROFILE`.
 * A server of the user's own that is named `unfold` is not.
 *
 * @param value The entry.
 * @param config unfold's config.
 * @param profile The profile.
 * @returns Whether it is setup's.
 */
export function isGatewayEntry(value: unknown, config: string, profile: string): boolean {
  if (!isRecord(value) || !Array.isArray(value.args)) return false;
  const args = value.args.map(String);
  const at = args.lastIndexOf("gateway");
  if (at < 0) return false;
  const tail = args.slice(at + 1);
  const flag = (name: string) => tail[tail.indexOf(name) + 1];
  return tail.includes("--config") && flag("--config") === config && flag("--profile") === profile;
}

function onPath(name: string, env: Env): string | undefined {
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
