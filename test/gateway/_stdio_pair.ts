/**
 * Sends the same lines to the MCP SDK's server (`hostServer()` served by `serveStdio`, as the
 * stdio face did) and to the SDK-free `serveToolHost`, over the same wire and the same fake host,
 * and compares what each writes back (`stdio_server_test.ts`, `stdio_server_modern_test.ts`).
 *
 * @module
 */
import { deepEqual } from "node:assert/strict";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { hostServer } from "../../src/gateway/faces/http.ts";
import { serveToolHost } from "../../src/gateway/faces/stdio_server.ts";
import { openStdioWire, transportOf } from "../../src/gateway/faces/stdio_wire.ts";
import type { ToolHost } from "../../src/gateway/tool_host.ts";

/** A line to send, a change of the host's tools, or closing the server. */
export type Step = string | "change" | "close";

/**
 * A host whose tools answer each way a host can: `echo` with progress, `slow` only when
 * cancelled, `nope` is no tool, `throws`/`crash` reject, and `r0`, `r1`, … answer the given results.
 */
export function fakeHost(results: unknown[]): ToolHost & { change(): void } {
  const listeners = new Set<() => void>();
  return {
    serverInfo: { name: "fake", version: "1.0.0" },
    instructions: () => "Use echo",
    tools: () => [{ name: "echo", description: "Echoes", inputSchema: { type: "object" } }],
    call: (name, args, call) => {
      if (name === "slow") {
        // Answers only when cancelled: the answer must then never be written.
        return new Promise((resolve) =>
          call.signal.addEventListener(
            "abort",
            () => resolve({ ok: true, result: { content: [{ type: "text", text: "late" }] } }),
          )
        );
      }
      if (name === "bare") return Promise.resolve({ ok: true, result: {} as never });
      if (name === "throws") {
        return Promise.reject(Object.assign(new Error("boom"), { code: -32_001, data: { x: 1 } }));
      }
      if (name === "crash") return Promise.reject(new TypeError("crashed"));
      if (name === "gone") {
        return Promise.reject(Object.assign(new Error("gone"), { code: -32_002 }));
      }
      if (name === "odd") return Promise.reject("not an error");
      if (name === "extra") {
        return Promise.resolve({
          ok: true,
          result: {
            content: [{ type: "text", text: "x", extra: 1, _meta: { a: 1 } }, {
              type: "resource",
              resource: { uri: "u", text: "t", extra: 2 },
              extra: 3,
            }],
            structuredContent: { a: [1] },
            isError: false,
            extra: 4,
            _meta: { b: 1 },
          } as never,
        });
      }
      if (name === "bad") {
        return Promise.resolve({ ok: true, result: { content: [{ type: "x" }] } as never });
      }
      if (/^r\d+$/.test(name)) {
        return Promise.resolve({ ok: true, result: results[Number(name.slice(1))] as never });
      }
      if (name !== "echo") {
        return Promise.resolve({ ok: false, message: `There is no tool "${name}"` });
      }
      call.onProgress?.({ progress: 1, total: 2 });
      call.onProgress?.({ progress: 2, total: 2, message: "done" });
      return Promise.resolve({
        ok: true,
        result: { content: [{ type: "text", text: JSON.stringify(args) }] },
      });
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    change: () => listeners.forEach((listener) => listener()),
  };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 1));
};

async function exchange(
  steps: Step[],
  sdk: boolean,
  results: unknown[],
): Promise<unknown[]> {
  const host = fakeHost(results);
  const input = new TransformStream<Uint8Array, Uint8Array>();
  const writer = input.writable.getWriter();
  const written: unknown[] = [];
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => {
      for (const line of new TextDecoder().decode(chunk).split("\n")) {
        if (line !== "") written.push(JSON.parse(line));
      }
    },
  });
  const wire = openStdioWire(input.readable, output);
  const served = sdk
    ? serveStdio(() => hostServer(host, "s"), { transport: transportOf(wire) as never })
    : serveToolHost(host, transportOf(wire), { session: "s" });
  for (const step of steps) {
    if (step === "change") host.change();
    else if (step === "close") await served.close();
    else await writer.write(new TextEncoder().encode(`${step}\n`));
    await settle();
  }
  await writer.close().catch(() => {});
  await wire.ended;
  await settle();
  return written;
}

/**
 * What the SDK-free server alone writes back for the steps: for what it answers on purpose
 * otherwise than the SDK's server (see `stdio_server.ts`).
 */
export function ownAnswers(steps: Step[], results: unknown[] = []): Promise<unknown[]> {
  return exchange(steps, false, results);
}

/** A request line. */
export const rpc = (id: unknown, method: string, params?: unknown): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
/** A notification line. */
export const note = (method: string, params?: unknown): string =>
  JSON.stringify({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
/** A valid 2026-07-28 envelope. */
export const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
};
/** A 2026-07-28 request line: the envelope in `_meta`, with what `params._meta` adds. */
export const modern = (
  id: unknown,
  method: string,
  params: Record<string, unknown> = {},
): string => rpc(id, method, { ...params, _meta: { ...envelope, ...(params._meta as object) } });
/** A 2025-era `initialize` line. */
export const init = (id: unknown, version: unknown): string =>
  rpc(id, "initialize", {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: "c", version: "1" },
  });

// The one text not matched: why a malformed result was refused (zod's issue list); the gateway
// never sends one (`tool_calls.ts` turns it into a tool error first).
const MALFORMED = "Invalid tools/call result: ";
/** Answers with the one unmatched text cut to its start. */
export function normalised(messages: unknown[]): unknown[] {
  return messages.map((message) => {
    const error = (message as { error?: { message: string } }).error;
    if (error === undefined || !error.message.startsWith(MALFORMED)) return message;
    return { ...(message as object), error: { ...error, message: MALFORMED } };
  });
}

// Lines read at once are served concurrently: answers to different requests may interleave in
// any order (JSON-RPC promises none), so a burst is compared per request, in order within each:
// its progress, then its answer.
/** Answers grouped by request (progress by its token), in order within each. */
export function perRequest(messages: unknown[]): Record<string, unknown[]> {
  const streams: Record<string, unknown[]> = {};
  for (const message of messages) {
    const m = message as { id?: unknown; params?: { progressToken?: unknown } };
    const key = m.id !== undefined
      ? `id ${JSON.stringify(m.id)}`
      : m.params?.progressToken !== undefined
      ? `progress ${JSON.stringify(m.params.progressToken)}`
      : "notifications";
    (streams[key] ??= []).push(message);
  }
  return streams;
}

/**
 * Sends the steps to both servers and asserts the same answers, to the byte (each message as the
 * JSON text it was written, so member order counts): in order, or per request when a step holds
 * several lines (read at once, they are served concurrently).
 */
export async function assertSameAnswers(steps: Step[], results: unknown[] = []): Promise<{
  [request: string]: unknown[];
}> {
  const expected = normalised(await exchange(steps, true, results));
  const actual = normalised(await exchange(steps, false, results));
  const texts = (messages: unknown[]) => messages.map((message) => JSON.stringify(message));
  if (steps.some((step) => step.includes("\n"))) {
    const streams = (messages: unknown[]) =>
      Object.fromEntries(
        Object.entries(perRequest(messages)).map(([request, stream]) => [request, texts(stream)]),
      );
    deepEqual(streams(actual), streams(expected));
  } else deepEqual(texts(actual), texts(expected));
  return perRequest(expected);
}
