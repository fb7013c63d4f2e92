/**
 * The contract every transport's connection runs against the real server-everything: listing,
 * calls and their mapped results, failures, timeouts, and closing.
 *
 * @module
 */

import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { Injector, McpCatalog } from "../../mod.ts";
import { type McpConnection, McpError, type McpErrorCode } from "../../src/mcp/mod.ts";

/** What a transport gives each contract test: connections to one server-everything, then a stop. */
export interface EverythingFixture {
  /** Makes a new connection to server-everything, named "everything". */
  connect(): Promise<McpConnection>;
  /** Releases what the fixture started (a server process). */
  stop(): Promise<void>;
}

/**
 * Asserts that a promise rejects with an {@linkcode McpError} of a code. It attaches its handler at
 * once, so call it before awaiting anything else that may let the promise reject.
 *
 * @param promise The promise.
 * @param code The expected code.
 * @returns The error.
 */
export async function rejectsWith(
  promise: Promise<unknown>,
  code: McpErrorCode,
): Promise<McpError> {
  let caught: unknown;
  await rejects(promise, (error) => {
    caught = error;
    return true;
  });
  ok(caught instanceof McpError, `expected an McpError, got ${String(caught)}`);
  equal(caught.code, code, caught.message);
  return caught;
}

/**
 * Registers the contract tests for one transport.
 *
 * @param transport The transport's name, shown in test names.
 * @param start Starts what the connections need; each test stops it at its end.
 */
export function everythingContract(
  transport: string,
  start: () => Promise<EverythingFixture>,
): void {
  Deno.test(`${transport}: a connection lists, calls and maps server-everything's tools`, async (t) => {
    const fixture = await start();
    const everything = await fixture.connect();
    try {
      await t.step(
        "tools() lists every tool with its server set and an object schema",
        async () => {
          const tools = await everything.tools();
          const names = tools.map((tool) => tool.name);
          for (
            const name of ["echo", "get-sum", "get-tiny-image", "trigger-long-running-operation"]
          ) {
            ok(names.includes(name), `${name} is missing from ${names.join(", ")}`);
          }
          ok(tools.every((tool) => tool.server === "everything"));
          ok(tools.every((tool) => tool.inputSchema.type === "object"));
          equal(new McpCatalog(tools).size, tools.length);
          equal(
            tools.find((tool) => tool.name === "echo")?.description,
            "Echoes back the input string",
          );
        },
      );

      await t.step("the handshake tells who the server is", () => {
        equal(everything.identity.name, "mcp-servers/everything");
        equal(everything.identity.title, "Everything Reference Server");
        equal(everything.closed, false);
      });

      await t.step("call() maps echo's one text block to its string", async () => {
        equal(await everything.call("echo", { message: "hi" }), "Echo: hi");
      });

      await t.step("call() maps get-sum's result to its string", async () => {
        equal(await everything.call("get-sum", { a: 2, b: 3 }), "The sum of 2 and 3 is 5.");
      });

      await t.step(
        "call() maps the tiny image to an image block between its text blocks",
        async () => {
          const result = await everything.call("get-tiny-image");
          ok(Array.isArray(result));
          deepEqual(result.map((block) => block.type), ["text", "image", "text"]);
          const image = result[1];
          ok(image?.type === "image");
          equal(image.mimeType, "image/png");
          ok(image.data.startsWith("iVBORw0KGgo"), "base64 PNG data");
        },
      );

      await t.step("call() keeps structured content alongside the text", async () => {
        deepEqual(await everything.call("get-structured-content", { location: "Chicago" }), {
          content: '{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}',
          structuredContent: { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 },
        });
      });

      await t.step("call() maps resource links to resource blocks", async () => {
        const result = await everything.call("get-resource-links", { count: 2 });
        ok(Array.isArray(result));
        equal(result.length, 3);
        const link = result[1];
        ok(link?.type === "resource");
        equal(link.name, "Blob Resource 1");
        ok(link.uri.startsWith("demo://resource/"));
      });

      await t.step("call() fails with tool_error when the tool reports an error", async () => {
        const error = await rejectsWith(everything.call("get-sum", { a: "two" }), "tool_error");
        ok(error.message.includes("get-sum"), error.message);
        await rejectsWith(everything.call("no-such-tool"), "tool_error");
      });

      await t.step("call() abandons a slow call at its timeout with call_timeout", async () => {
        const error = await rejectsWith(
          everything.call("trigger-long-running-operation", { duration: 1, steps: 1 }, {
            timeoutMs: 100,
          }),
          "call_timeout",
        );
        equal(
          error.message,
          'Cannot call "everything/trigger-long-running-operation": no answer within 100 ms',
        );
        equal(await everything.call("echo", { message: "still here" }), "Echo: still here");
      });

      await t.step("the invoker runs the tool that Injector.handle resolved", async () => {
        const injector = new Injector(new McpCatalog(await everything.tools()));
        const result = await injector.handle(
          { action: "execute", name: "everything/echo", arguments: { message: "via the bridge" } },
          everything.invoker,
        );
        equal(result.toolResult, "Echo: via the bridge");
        // Arguments that break the tool's schema never reach the server.
        const refused = await injector.handle(
          { action: "execute", name: "everything/get-sum", arguments: { a: 1 } },
          { invoke: () => Promise.reject(new Error("must not be called")) },
        );
        ok(refused.action === "error" && refused.code === "invalid_arguments");
        // A failing call comes back as an error result, not an exception.
        const failed = await injector.handle(
          {
            action: "execute",
            name: "everything/trigger-long-running-operation",
            arguments: { duration: 1, steps: 1 },
          },
          { invoke: (tool, args) => everything.call(tool.name, args, { timeoutMs: 50 }) },
        );
        ok(failed.action === "execute" && failed.isError);
        equal(failed.error.code, "call_timeout");
      });
    } finally {
      await everything.close();
      await fixture.stop();
    }
  });

  Deno.test(`${transport}: close() fails the pending call and every later request at once`, async () => {
    const fixture = await start();
    const everything = await fixture.connect();
    const pending = rejectsWith(
      everything.call("trigger-long-running-operation", { duration: 1, steps: 1 }),
      "disconnected",
    );
    let closed = false;
    const closing = everything.close().then(() => closed = true);
    // The pending call fails as close() begins, without waiting for the server or the transport.
    const error = await pending;
    equal(closed, false);
    equal(
      error.message,
      'Cannot call "everything/trigger-long-running-operation": the connection was closed',
    );
    equal(everything.closed, true);
    await rejectsWith(everything.call("echo", { message: "late" }), "disconnected");
    await rejectsWith(everything.tools(), "disconnected");
    await closing;
    await everything.close();
    await fixture.stop();
  });
}
