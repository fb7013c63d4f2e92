/**
 * Sign-ins kept on disk (Deno): one file per upstream (its name and a hash of its URL) under the
 * unfold config directory, so a sign-in to one server never shares a file with another's;
 * readable by the user alone (file 0600, directory 0700); written as a transaction
 * (`utils/file_transaction.ts`: under the file's lock in `<dir>/locks/`, re-read, the change
 * applied to the record as stored then, renamed over it only if unchanged meanwhile, a symlink
 * kept), so a crash never leaves half a file and a refresh in one process never writes over a
 * sign-in another process stored since it read.
 *
 * Doors that write a record: this store's `write` and `update` alone (`unfold login`, the
 * gateway's refreshes through `provider.ts`).
 *
 * @module
 */

import { readRegularFile } from "../../utils/regular_file.ts";
import { editFile } from "../../utils/file_transaction.ts";
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
  const parse = (text: string): OAuthRecord | undefined => {
    try {
      return checkOAuthRecord(JSON.parse(text), server, url);
    } catch {
      return undefined;
    }
  };
  const update = async (
    change: (stored: OAuthRecord | undefined) => OAuthRecord | undefined,
  ): Promise<OAuthRecord | undefined> => {
    const path = await oauthRecordPath(dir, server, url);
    const folder = `${dir}/oauth`;
    await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
    await restrict(folder, 0o700);
    let written: OAuthRecord | undefined;
    const edited = await editFile(path, (bytes) => {
      // Too large or not a record of ours: as if signed out, so the change replaces it.
      const text = bytes === undefined || bytes.length > MAX_RECORD_BYTES
        ? undefined
        : new TextDecoder().decode(bytes);
      written = change(text === undefined ? undefined : parse(text));
      return {
        ok: true,
        value: written === undefined
          ? undefined
          : new TextEncoder().encode(`${JSON.stringify(written, null, 2)}\n`),
      };
    }, { lockDir: `${dir}/locks`, mode: 0o600 });
    if (!edited.ok) throw new Error(`Cannot keep the sign-in record: ${edited.error}`);
    return written;
  };
  return {
    async read() {
      const path = await oauthRecordPath(dir, server, url);
      const read = await readRegularFile(path, MAX_RECORD_BYTES);
      if (!read.ok) {
        // Too large to be ours: as if signed out, so a new sign-in replaces it.
        if (read.code === "not_found" || read.code === "too_large") return undefined;
        throw new Error(`Cannot read the sign-in record ${path}: ${read.reason}`);
      }
      return parse(read.text);
    },
    async write(record: OAuthRecord | undefined) {
      await update(() => record);
    },
    update,
  };
}

// Modes are POSIX: on Windows the user's profile folder already keeps others out.
async function restrict(path: string, mode: number): Promise<void> {
  if (Deno.build.os !== "windows") await Deno.chmod(path, mode);
}
