/**
 * A fake host served on the gateway's stdio face in process, and the lines to send it: what the
 * face tests (`test/gateway/faces/stdio_*_test.ts`) write and read.
 *
 * @module
 */
import { HostStdioTransport, serveHostStdio } from "../../src/gateway/faces/stdio.ts";
import type { ToolHost } from "../../src/gateway/faces/server.ts";

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

// A few turns of the event loop: what the SDK's entry takes to hand a notification on (it answers
// each message a few microtasks and a timer later).
const turns = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

// What a step waits for: the answer of each request it sends (a subscription's acknowledgement or
// refusal; a `slow` call is answered only when cancelled, and then never).
function awaited(step: string): ((message: Record<string, unknown>) => boolean)[] {
  const waits: ((message: Record<string, unknown>) => boolean)[] = [];
  for (const line of step.split("\n")) {
    let request: { id?: unknown; method?: unknown; params?: { name?: unknown } };
    try {
      request = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof request?.method !== "string" || !("id" in request)) continue;
    if (request.params?.name === "slow") continue;
    const id = request.id;
    waits.push((message) =>
      message.id === id ||
      (request.method === "subscriptions/listen" &&
        (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta
            ?.["io.modelcontextprotocol/subscriptionId"] === id)
    );
  }
  return waits;
}

/**
 * Serves the fake host on the stdio face (`serveHostStdio` over a `HostStdioTransport`) and sends it
 * the steps, one write each, each once the face has answered the requests of the one before;
 * returns every message it wrote back, in order.
 */
export async function stdioAnswers(steps: Step[], results: unknown[] = []): Promise<unknown[]> {
  const host = fakeHost(results);
  const input = new TransformStream<Uint8Array, Uint8Array>();
  const writer = input.writable.getWriter();
  const written: Record<string, unknown>[] = [];
  let wrote = Promise.withResolvers<void>();
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => {
      for (const line of new TextDecoder().decode(chunk).split("\n")) {
        if (line !== "") written.push(JSON.parse(line));
      }
      wrote.resolve();
      wrote = Promise.withResolvers<void>();
    },
  });
  const transport = new HostStdioTransport({ input: input.readable, output });
  const served = serveHostStdio(host, { stdio: transport });
  for (const step of steps) {
    if (step === "change") host.change();
    else if (step === "close") await served.close();
    else {
      const from = written.length;
      await writer.write(new TextEncoder().encode(`${step}\n`));
      for (const wait of awaited(step)) {
        while (!written.slice(from).some(wait)) await wrote.promise;
      }
    }
    await turns();
  }
  await writer.close().catch(() => {});
  await transport.ended;
  await turns();
  return written;
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
