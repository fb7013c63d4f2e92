/**
 * Sign-ins kept on disk (Deno): one file per upstream under the unfold config directory, readable
 * by the user alone (file 0600, directory 0700), replaced whole so a crash never leaves half a
 * file.
 *
 * @module
 */

import { readRegularFile } from "../../utils/regular_file.ts";
import { checkOAuthRecord, type OAuthRecord, type OAuthStore } from "./store.ts";

// A record holds a few tokens and a registration: anything much larger is not ours.
const MAX_RECORD_BYTES = 64 * 1024;

/**
 * The unfold config directory: `UNFOLD_CONFIG_DIR`, else `$XDG_CONFIG_HOME/unfold`, else
 * `~/.config/unfold`.
 *
 * @param env The environment variables.
 * @returns The directory.
 * @throws {TypeError} When none of `UNFOLD_CONFIG_DIR`, `XDG_CONFIG_HOME` and `HOME` is set.
 *
 * @example Usage
 * ```ts
 * import { unfoldConfigDir } from "./file_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(unfoldConfigDir({ UNFOLD_CONFIG_DIR: "/etc/u" }), "/etc/u");
 * equal(unfoldConfigDir({ XDG_CONFIG_HOME: "/home/a/.cfg" }), "/home/a/.cfg/unfold");
 * equal(unfoldConfigDir({ HOME: "/home/a" }), "/home/a/.config/unfold");
 * ```
 */
export function unfoldConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  if (env.UNFOLD_CONFIG_DIR) return env.UNFOLD_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return `${env.XDG_CONFIG_HOME}/unfold`;
  if (env.HOME) return `${env.HOME}/.config/unfold`;
  throw new TypeError(
    "Cannot find the unfold config directory: set UNFOLD_CONFIG_DIR, XDG_CONFIG_HOME or HOME",
  );
}

/**
 * Where the sign-in to one upstream is kept: `DIR/oauth/<server>-<hash of the URL>.json`, so a
 * server whose URL changes starts signed out and its old tokens never go to the new URL.
 *
 * @param dir The unfold config directory.
 * @param server The server's name in the config.
 * @param url The server's MCP endpoint.
 * @returns The file's path.
 *
 * @example Usage
 * ```ts
 * import { oauthRecordPath } from "./file_store.ts";
 * import { match } from "node:assert/strict";
 *
 * match(await oauthRecordPath("/u", "gh", "https://example.com/mcp"), /^\/u\/oauth\/gh-[0-9a-f]{16}\.json$/);
 * ```
 */
export async function oauthRecordPath(dir: string, server: string, url: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(url));
  const hex = [...new Uint8Array(digest).slice(0, 8)]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  // Server names are config names ([A-Za-z0-9_.-]); the hash suffix keeps "." and ".." harmless.
  return `${dir}/oauth/${server}-${hex}.json`;
}

/**
 * A store in a file under the unfold config directory.
 *
 * @param dir The unfold config directory (see {@linkcode unfoldConfigDir}).
 * @param server The server's name in the config.
 * @param url The server's MCP endpoint.
 * @returns The store.
 *
 * @example Usage
 * ```ts
 * import { fileOAuthStore, oauthRecordPath } from "./file_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const store = fileOAuthStore(dir, "gh", "https://example.com/mcp");
 * await store.write({ server: "gh", url: "https://example.com/mcp" });
 * equal((await Deno.stat(await oauthRecordPath(dir, "gh", "https://example.com/mcp"))).mode! & 0o777, 0o600);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function fileOAuthStore(dir: string, server: string, url: string): OAuthStore {
  return {
    async read() {
      const path = await oauthRecordPath(dir, server, url);
      const read = await readRegularFile(path, MAX_RECORD_BYTES);
      if (!read.ok) {
        // Too large to be ours: as if signed out, so a new sign-in replaces it.
        if (read.code === "not_found" || read.code === "too_large") return undefined;
        throw new Error(`Cannot read the sign-in record ${path}: ${read.reason}`);
      }
      try {
        return checkOAuthRecord(JSON.parse(read.text), server, url);
      } catch {
        return undefined;
      }
    },
    async write(record: OAuthRecord | undefined) {
      const path = await oauthRecordPath(dir, server, url);
      if (record === undefined) {
        await Deno.remove(path).catch((error) => {
          if (!(error instanceof Deno.errors.NotFound)) throw error;
        });
        return;
      }
      const folder = `${dir}/oauth`;
      await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
      await restrict(folder, 0o700);
      const temporary = `${path}.${crypto.randomUUID()}.tmp`;
      try {
        await Deno.writeTextFile(temporary, `${JSON.stringify(record, null, 2)}\n`, {
          createNew: true,
          mode: 0o600,
        });
        await restrict(temporary, 0o600);
        await Deno.rename(temporary, path);
      } catch (error) {
        await Deno.remove(temporary).catch(() => {});
        throw error;
      }
    },
  };
}

// Modes are POSIX: on Windows the user's profile folder already keeps others out.
async function restrict(path: string, mode: number): Promise<void> {
  if (Deno.build.os !== "windows") await Deno.chmod(path, mode);
}
