/**
 * What the gateway's stdio wire reads (`stdio_wire.ts`): the host's stdin, and the one way to
 * take chunks from each kind of input (a web stream in tests, a reader into a buffer, a Node
 * stream over a pipe).
 *
 * @module
 */

import { fstatSync } from "node:fs";
import { Socket } from "node:net";
import type { Readable } from "node:stream";

// The buffer a reader into a buffer reads into (Deno's own stdin stream reads 64 KiB at a time).
const READ_BYTES = 64 * 1024;

/**
 * Where a wire reads: a byte stream, a reader into a buffer such as `Deno.stdin`, or a Node
 * stream (a pipe, see {@linkcode hostStdin}). Reading `Deno.stdin` into one reused buffer skips
 * the web stream's machinery (a pull, a respond and a promise per chunk).
 */
export type WireInput = ReadableStream<Uint8Array> | {
  read(buffer: Uint8Array): Promise<number | null>;
} | Readable;

/**
 * The host's stdin as the wire reads it best: a pipe or a socket through the runtime's
 * non-blocking pipe handle (`node:net`), read on the event loop as the upstreams' pipes are;
 * anything else (a file, a terminal, a socket that is stdout too) as `Deno.stdin`. Deno reads
 * `Deno.stdin` on a blocking thread, duplicating the descriptor for each read and closing it
 * after: the trips there and back were a fifth of the gateway's CPU per execute (all threads,
 * median of 10 runs of `threads.ts`: 128 against 98 µs).
 *
 * @returns The input.
 *
 * @example Usage
 * ```ts ignore
 * import { hostStdin } from "./_wire_input.ts";
 * import { openStdioWire } from "./stdio_wire.ts";
 *
 * const wire = openStdioWire(hostStdin(), Deno.stdout);
 * await wire.ended;
 * ```
 */
export function hostStdin(): WireInput {
  if (Deno.build.os === "windows") return Deno.stdin;
  try {
    const input = fstatSync(0);
    if (!input.isFIFO() && !input.isSocket()) return Deno.stdin;
    // Made non-blocking by the pipe handle: never a descriptor the gateway writes to as well.
    for (const fd of [1, 2]) {
      const other = fstatSync(fd);
      if (other.dev === input.dev && other.ino === input.ino) {
        return Deno.stdin;
      }
    }
    return new Socket({ fd: 0, readable: true, writable: false });
  } catch {
    return Deno.stdin;
  }
}

/** Chunks out of an input, pushed to their reader as they come. */
export interface ChunkReader {
  /**
   * Starts reading.
   *
   * @param chunk Takes each chunk, valid until the next one; `false` stops the reading.
   * @param end Told once that the input ended, with the error that ended it if any.
   */
  start(chunk: (bytes: Uint8Array) => boolean, end: (error?: unknown) => void): void;
  /** Stops reading (a reader into a buffer leaves its pending read to the input's end). */
  cancel(): void;
}

/**
 * The one way to read chunks, over each kind of input: a chunk is valid until the next one (the
 * wire's splitter copies what it holds), so a reader into a buffer reuses one.
 *
 * @param input The input.
 * @returns Its reader.
 *
 * @example Usage
 * ```ts
 * import { readerOf } from "./_wire_input.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const seen: number[] = [];
 * const ended = Promise.withResolvers<void>();
 * readerOf(ReadableStream.from([new Uint8Array([1, 2]), new Uint8Array([3])]))
 *   .start((bytes) => (seen.push(...bytes), true), () => ended.resolve());
 * await ended.promise;
 * deepEqual(seen, [1, 2, 3]);
 * ```
 */
export function readerOf(input: WireInput): ChunkReader {
  if (input instanceof ReadableStream) {
    const reader = input.getReader();
    return pulling(
      () => reader.read().then(({ value, done }) => done ? null : value),
      () => void reader.cancel().catch(() => {}),
    );
  }
  if (!isNodeReadable(input)) {
    const buffer = new Uint8Array(READ_BYTES);
    // Its pending read ends with the input, or with the process.
    return pulling(
      () => input.read(buffer).then((n) => n === null ? null : buffer.subarray(0, n)),
      () => {},
    );
  }
  return {
    start(chunk, end) {
      let ended = false;
      const finish = (error?: unknown) => {
        if (ended) return;
        ended = true;
        end(error);
      };
      input.on("data", (bytes: Uint8Array) => {
        // As a plain view: a Buffer's `slice` is a view too, and the splitter's copies must copy.
        if (!chunk(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))) {
          input.destroy();
        }
      });
      input.on("end", () => finish());
      input.on("close", () => finish());
      input.on("error", (error: unknown) => finish(error));
    },
    cancel: () => void input.destroy(),
  };
}

function isNodeReadable(input: Exclude<WireInput, ReadableStream>): input is Readable {
  return "on" in input;
}

function pulling(read: () => Promise<Uint8Array | null>, cancel: () => void): ChunkReader {
  return {
    async start(chunk, end) {
      try {
        for (;;) {
          const bytes = await read();
          if (bytes === null || !chunk(bytes)) break;
        }
      } catch (error) {
        end(error);
        return;
      }
      end();
    },
    cancel,
  };
}
