/**
 * Where unfold's own config lives: `mcp.json` in the unfold config directory
 * (`$UNFOLD_CONFIG_DIR`, else `$XDG_CONFIG_HOME/unfold`, else `~/.config/unfold`). `unfold setup`
 * writes it; every command reads it when `--config` is not given.
 *
 * @module
 */

import { join } from "node:path";
import { unfoldConfigDir } from "../mcp/oauth/file_store.ts";

/**
 * The path of unfold's own config.
 *
 * @param env The environment.
 * @returns The path, or `""` when the environment names no config directory.
 *
 * @example Usage
 * ```ts
 * import { defaultConfigPath } from "./unfold_config.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(defaultConfigPath({ UNFOLD_CONFIG_DIR: "/etc/unfold" }), "/etc/unfold/mcp.json");
 * equal(defaultConfigPath({ HOME: "/home/ada" }), "/home/ada/.config/unfold/mcp.json");
 * equal(defaultConfigPath({}), "");
 * ```
 */
export function defaultConfigPath(env: Readonly<Record<string, string | undefined>>): string {
  try {
    return join(unfoldConfigDir(env), "mcp.json");
  } catch {
    return "";
  }
}
