/**
 * Reads a file unfold depends on (config, snapshot, lock, sign-in record) only when it is a
 * regular file, and at most a bound of bytes (Deno and Node; never on Workers). A named pipe, a
 * device or a folder put in its place is refused at once instead of blocking the start: the file
 * is opened without waiting (`O_NONBLOCK`, so opening a FIFO with no writer returns), its type is
 * read from the opened handle (so a swap between a check and the open changes nothing), and one
 * byte past the bound is read, so a file that grows while it is read is caught too.
 *
 * @module
 */

import { constants } from "node:fs";
import { open } from "node:fs/promises";

/** Why a file was not read. */
export type FileProblem = "not_found" | "not_regular" | "too_large" | "unreadable";

/** Why a file was not read: its code, and the reason in words (`it is not a regular file`). */
export type FileFailure = { ok: false; code: FileProblem; reason: string };

/** A file's text, or why it was not read. */
export type FileRead = { ok: true; text: string } | FileFailure;

/** A file's bytes, or why they were not read. */
export type FileBytes = { ok: true; bytes: Uint8Array } | FileFailure;

// Opening never waits for a writer (FIFO) or a device; Windows has no such flag, and no FIFOs.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a regular file as UTF-8 text, at most `maxBytes` of it.
 *
 * @param path The file's path.
 * @param maxBytes The most bytes read; a larger file is `too_large`.
 * @returns The text, or the problem (`not_found`, `not_regular`, `too_large`, `unreadable`).
 *
 * @example Usage
 * ```ts
 * import { readRegularFile } from "./regular_file.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.json`, "{}");
 * deepEqual(await readRegularFile(`${dir}/a.json`, 16), { ok: true, text: "{}" });
 * equal((await readRegularFile(dir, 16)).ok, false); // a folder: "it is not a regular file"
 * equal((await readRegularFile(`${dir}/a.json`, 1)).ok, false); // "it is over 1 bytes"
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<FileRead> {
  const read = await readRegularBytes(path, maxBytes);
  return read.ok ? { ok: true, text: new TextDecoder().decode(read.bytes) } : read;
}

/**
 * Reads a regular file's bytes, at most `maxBytes` of them (what {@linkcode readRegularFile}
 * decodes; for files kept byte for byte, such as a host's config before `unfold setup`).
 *
 * @param path The file's path.
 * @param maxBytes The most bytes read; a larger file is `too_large`.
 * @returns The bytes, or the problem.
 */
export async function readRegularBytes(path: string, maxBytes: number): Promise<FileBytes> {
  let handle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    return failed(error);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      const reason = info.isDirectory() ? "it is a folder" : "it is not a regular file";
      return { ok: false, code: "not_regular", reason };
    }
    // Sized by what the handle says, grown if the file grows: a small file costs what it holds.
    let buffer = new Uint8Array(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    while (length <= maxBytes) {
      if (length === buffer.length) {
        const larger = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1));
        larger.set(buffer);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) {
      return { ok: false, code: "too_large", reason: `it is over ${maxBytes} bytes` };
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch (error) {
    return failed(error);
  } finally {
    await handle.close().catch(() => {});
  }
}

function failed(error: unknown): FileFailure {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return { ok: false, code: "not_found", reason: "no such file" };
  // Opening a folder for reading succeeds on Linux, but not everywhere.
  if (code === "EISDIR") return { ok: false, code: "not_regular", reason: "it is a folder" };
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, code: "unreadable", reason: message };
}
