import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { type McpError, type ToolIssue } from "../../src/mcp/mod.ts";
import type { McpTool } from "../../mod.ts";
import { rejectsWith } from "../_contracts/everything_contract.ts";
import { fakeTool, serve, serveRaw } from "./_memory.ts";

Deno.test("tools() follows every page of tools/list, in order", async () => {
  const names = Array.from({ length: 25 }, (_, i) => `tool_${String(i).padStart(2, "0")}`);
  const cursors: Array<string | undefined> = [];
  const { connection } = await serve("paged", {
    list: (cursor) => {
      cursors.push(cursor);
      const start = cursor === undefined ? 0 : Number(cursor);
      const next = start + 10;
      return {
        tools: names.slice(start, next).map((name) => fakeTool(name)),
        ...(next < names.length ? { nextCursor: String(next) } : {}),
      };
    },
  });
  const tools = await connection.tools();
  deepEqual(tools.map((tool) => tool.name), names);
  deepEqual(cursors, [undefined, "10", "20"]);
  ok(tools.every((tool) => tool.server === "paged"));
  await connection.close();
});

Deno.test("tools() keeps a tool's title, schemas, annotations and _meta", async () => {
  const { connection } = await serve("full", {
    tools: [{
      name: "get_weather",
      title: "Weather",
      description: "Current weather",
      inputSchema: { type: "object", properties: { city: { type: "string" } } },
      outputSchema: { type: "object", properties: { temperature: { type: "number" } } },
      annotations: { readOnlyHint: true },
      _meta: { owner: "test" },
    }],
  });
  deepEqual(
    await connection.tools(),
    [{
      server: "full",
      name: "get_weather",
      title: "Weather",
      description: "Current weather",
      inputSchema: { type: "object", properties: { city: { type: "string" } } },
      outputSchema: { type: "object", properties: { temperature: { type: "number" } } },
      annotations: { readOnlyHint: true },
      _meta: { owner: "test" },
    }] satisfies McpTool[],
  );
  await connection.close();
});

Deno.test("tools() keeps and reports names that break MCP's rules, and reports what it leaves out", async () => {
  const issues: ToolIssue[] = [];
  const { connection } = await serveRaw("odd", () => ({
    tools: [
      { name: "fine-name.v2", inputSchema: { type: "object" } },
      { name: "has space", inputSchema: { type: "object" } },
      { name: "x".repeat(129), inputSchema: { type: "object" } },
      { name: "fine-name.v2", inputSchema: { type: "object" } },
      { name: "", inputSchema: { type: "object" } },
      { name: "bell\u0007", inputSchema: { type: "object" } },
      { name: "no_schema" },
      { name: "array_schema", inputSchema: { type: "array" } },
      "not a tool",
    ],
  }), { onToolIssue: (issue) => issues.push(issue) });
  const tools = await connection.tools();
  deepEqual(tools.map((tool) => tool.name), ["fine-name.v2", "has space", "x".repeat(129)]);
  deepEqual(tools.map((tool) => tool.description), ["", "", ""]);
  deepEqual(issues.map(({ server, name, dropped }) => ({ server, name, dropped })), [
    { server: "odd", name: "has space", dropped: false },
    { server: "odd", name: "x".repeat(129), dropped: false },
    { server: "odd", name: "fine-name.v2", dropped: true },
    { server: "odd", name: "", dropped: true },
    { server: "odd", name: "bell\u0007", dropped: true },
    { server: "odd", name: "no_schema", dropped: true },
    { server: "odd", name: "array_schema", dropped: true },
    { server: "odd", name: "", dropped: true },
  ]);
  equal(
    issues[0]?.problem,
    "breaks MCP's tool-name rules (1 to 128 characters of A-Z a-z 0-9 _ - .)",
  );
  equal(issues[2]?.problem, "repeats a name already listed by this server");
  await connection.close();
});

Deno.test("tools() fails with list_tools when the server answers tools/list with an error", async () => {
  const { connection } = await serveRaw("broken", () => {
    throw new Error("database offline");
  });
  const error = await rejectsWith(connection.tools(), "list_tools");
  equal(
    error.message,
    'Cannot list the tools of "broken": database offline (JSON-RPC error -32603 from the server)',
  );
  await connection.close();
});

Deno.test("tools() fails with list_tools when a server repeats a page cursor", async () => {
  const { connection } = await serveRaw("looping", () => ({ tools: [], nextCursor: "again" }));
  const error = await rejectsWith(connection.tools(), "list_tools");
  ok(error.message.includes('bad page cursor "again"'), error.message);
  await connection.close();
});

Deno.test("tools() fails with list_tools when a page takes longer than requestTimeoutMs", async () => {
  const { connection } = await serveRaw(
    "silent",
    (method) => method === "tools/list" ? undefined : {},
    { requestTimeoutMs: 50 },
  );
  const error = await rejectsWith(connection.tools(), "list_tools");
  equal(error.message, 'Cannot list the tools of "silent": no answer within 50 ms');
  await connection.close();
});

Deno.test("onToolsChanged() hands listeners the new tools after list_changed", async () => {
  let tools = [fakeTool("first")];
  const { connection, server } = await serve("changing", { list: () => ({ tools }) });
  const seen: string[][] = [];
  const changed = Promise.withResolvers<void>();
  const stop = connection.onToolsChanged((next) => {
    seen.push(next.map((tool) => tool.name));
    changed.resolve();
  });
  tools = [fakeTool("first"), fakeTool("second")];
  await server.sendToolListChanged();
  await changed.promise;
  deepEqual(seen, [["first", "second"]]);
  stop();
  // A listener still registered sees the next change; by then the removed one would have too.
  const next = Promise.withResolvers<void>();
  connection.onToolsChanged(() => next.resolve());
  await server.sendToolListChanged();
  await next.promise;
  equal(seen.length, 1);
  await connection.close();
});

Deno.test("onToolsChanged() lists once more, not once each, for notifications during a listing", async () => {
  let listings = 0;
  // The first listing waits until all five notifications have been sent.
  const sent = Promise.withResolvers<void>();
  const { connection, server } = await serve("busy", {
    list: async () => {
      listings++;
      const version = `v${listings}`;
      await sent.promise;
      return { tools: [fakeTool(version)] };
    },
  });
  const seen: string[] = [];
  const twice = Promise.withResolvers<void>();
  connection.onToolsChanged((tools) => {
    seen.push(tools[0]!.name);
    if (seen.length === 2) twice.resolve();
  });
  for (let i = 0; i < 5; i++) await server.sendToolListChanged();
  sent.resolve();
  await twice.promise;
  // A third refresh would be requested before this listing of ours, and answered first.
  deepEqual((await connection.tools()).map((tool) => tool.name), ["v3"]);
  equal(listings, 3);
  deepEqual(seen, ["v1", "v2"]);
  await connection.close();
});

Deno.test("a listener that throws does not stop the others, and its error is rethrown on its own", async () => {
  const uncaught: unknown[] = [];
  const rethrown = Promise.withResolvers<void>();
  const catcher = (event: ErrorEvent) => {
    uncaught.push(event.error);
    event.preventDefault();
    rethrown.resolve();
  };
  globalThis.addEventListener("error", catcher);
  try {
    const { connection, server } = await serve("shared", { tools: [fakeTool("only")] });
    const second = Promise.withResolvers<string[]>();
    connection.onToolsChanged(() => {
      throw new Error("listener bug");
    });
    connection.onToolsChanged((tools) => second.resolve(tools.map((tool) => tool.name)));
    await server.sendToolListChanged();
    deepEqual(await second.promise, ["only"]);
    await rethrown.promise;
    equal((uncaught[0] as Error | undefined)?.message, "listener bug");
    await connection.close();
  } finally {
    globalThis.removeEventListener("error", catcher);
  }
});

Deno.test("onToolsChanged() reports a failed refresh to onError as list_tools", async () => {
  const errors: McpError[] = [];
  const reported = Promise.withResolvers<void>();
  const { connection, server } = await serve("flaky", {
    list: () => Promise.reject(new Error("index rebuilding")),
  }, {
    onError: (error) => {
      errors.push(error);
      reported.resolve();
    },
  });
  connection.onToolsChanged(() => {});
  await server.sendToolListChanged();
  await reported.promise;
  equal(errors[0]?.code, "list_tools");
  ok(errors[0]?.message.includes("index rebuilding"), errors[0]?.message);
  await connection.close();
});

Deno.test("call() throws unsupported_content for audio, naming the tool", async () => {
  const { connection } = await serve("speaker", {
    call: () => ({ content: [{ type: "audio", mimeType: "audio/wav", data: "UklGRg==" }] }),
  });
  const error = await rejectsWith(connection.call("speak"), "unsupported_content");
  equal(
    error.message,
    'Cannot map the result of "speaker/speak": block 1 is audio ("audio/wav"), which cannot be handed on',
  );
  await connection.close();
});

Deno.test("call() throws unsupported_content for a block type it does not know", async () => {
  const { connection } = await serveRaw("future", () => ({ content: [{ type: "hologram" }] }));
  await rejectsWith(connection.call("project"), "unsupported_content");
  await connection.close();
});

Deno.test("call() maps embedded resources and resource links to resource blocks", async () => {
  const { connection } = await serve("files", {
    call: () => ({
      content: [
        { type: "text", text: "Two files:" },
        {
          type: "resource",
          resource: { uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes" },
        },
        {
          type: "resource",
          resource: { uri: "file:///logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=" },
        },
        {
          type: "resource_link",
          uri: "file:///big.csv",
          name: "big.csv",
          description: "A large table",
        },
      ],
    }),
  });
  deepEqual(await connection.call("read"), [
    { type: "text", text: "Two files:" },
    { type: "resource", uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes" },
    { type: "resource", uri: "file:///logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=" },
    { type: "resource", uri: "file:///big.csv", name: "big.csv", description: "A large table" },
  ]);
  await connection.close();
});

Deno.test("call() throws tool_error with the joined text of an isError result", async () => {
  const { connection } = await serve("strict", {
    call: () => ({
      content: [{ type: "text", text: "Access denied" }, { type: "text", text: "(read-only)" }],
      isError: true,
    }),
  });
  const error = await rejectsWith(connection.call("write"), "tool_error");
  equal(error.message, "Access denied\n(read-only)");
  await connection.close();
});

Deno.test("call() throws tool_error for a JSON-RPC error answer, without the SDK's prefix", async () => {
  const { connection } = await serveRaw("rpc", () => {
    throw new Error("Unknown tool: nope");
  });
  const error = await rejectsWith(connection.call("nope"), "tool_error");
  equal(
    error.message,
    'Cannot call "rpc/nope": Unknown tool: nope (JSON-RPC error -32603 from the server)',
  );
  await connection.close();
});

Deno.test("a server that dies mid-call fails the pending call at once with disconnected", async () => {
  const lost: McpError[] = [];
  const called = Promise.withResolvers<void>();
  const { connection, serverSide } = await serve("mortal", {
    call: () => {
      called.resolve();
      return new Promise<never>(() => {});
    },
  }, { onError: (error) => lost.push(error) });
  const pending = rejectsWith(connection.call("wait"), "disconnected");
  await called.promise;
  await serverSide.close();
  const error = await pending;
  equal(error.message, 'Cannot call "mortal/wait": the server closed the connection');
  equal(connection.closed, true);
  await rejectsWith(connection.call("wait"), "disconnected");
  await rejectsWith(connection.tools(), "disconnected");
  deepEqual(lost.map((error) => [error.code, error.message]), [[
    "disconnected",
    'Lost the connection to "mortal": the server closed the connection',
  ]]);
  await connection.close();
});

Deno.test("callTimeoutMs bounds every call, and a call's timeoutMs overrides it", async () => {
  // The server answers only once the first call has timed out: the other two outlive the default.
  const timedOut = Promise.withResolvers<void>();
  const { connection } = await serve("slow", {
    call: async () => {
      await timedOut.promise;
      return { content: [{ type: "text", text: "done" }] };
    },
  }, { callTimeoutMs: 40 });
  const first = rejectsWith(connection.call("work"), "call_timeout");
  const unbounded = connection.call("work", {}, { timeoutMs: null });
  const longer = connection.call("work", {}, { timeoutMs: 60_000 });
  await first;
  timedOut.resolve();
  equal(await unbounded, "done");
  equal(await longer, "done");
  await connection.close();
});

Deno.test("callTimeoutMs: null lets calls take as long as they take", async () => {
  // Answered only after a call with a short timeout of its own has given up.
  const gaveUp = Promise.withResolvers<void>();
  const { connection } = await serve("patient", {
    call: async (name) => {
      if (name === "work") await gaveUp.promise;
      return { content: [{ type: "text", text: "eventually" }] };
    },
  }, { callTimeoutMs: null });
  const work = connection.call("work");
  await rejectsWith(connection.call("work", {}, { timeoutMs: 20 }), "call_timeout");
  gaveUp.resolve();
  equal(await work, "eventually");
  await connection.close();
});

Deno.test("call() rejects with the signal's reason when the caller aborts, and stays usable", async () => {
  let calls = 0;
  const started = Promise.withResolvers<void>();
  const { connection } = await serve("abortable", {
    call: () => {
      calls++;
      if (calls > 1) return { content: [{ type: "text", text: "ok" }] };
      started.resolve();
      return new Promise<never>(() => {});
    },
  });
  const controller = new AbortController();
  const pending = rejects(
    connection.call("work", {}, { signal: controller.signal }),
    (error: Error) => error.name === "AbortError",
  );
  await started.promise;
  controller.abort();
  await pending;
  await rejects(
    connection.call("work", {}, { signal: AbortSignal.abort(new Error("already")) }),
    /already/,
  );
  equal(await connection.call("work"), "ok");
  await connection.close();
});

Deno.test("invalid timeouts, names and arguments fail with a RangeError or TypeError, before any request", async () => {
  const { connection } = await serve("strict", {});
  for (const timeoutMs of [0, -5, Number.NaN, Infinity]) {
    await rejects(connection.call("x", {}, { timeoutMs }), RangeError);
  }
  await rejects(connection.call("x", {}, { timeoutMs: 0 }), {
    name: "RangeError",
    message:
      'Cannot call "strict/x": timeoutMs must be a positive number of milliseconds or null, got 0',
  });
  await rejects(connection.call(""), TypeError);
  await rejects(connection.call("x", [] as unknown as Record<string, unknown>), TypeError);
  throws(() => connection.onToolsChanged("no" as unknown as () => void), TypeError);
  await connection.close();
  await rejects(serve("bad", {}, { callTimeoutMs: 0 }), RangeError);
  await rejects(serve("bad", {}, { requestTimeoutMs: null as unknown as number }), RangeError);
  await rejects(serve("a/b", {}), TypeError);
});

Deno.test("the invoker calls its own server's tools and refuses another server's", async () => {
  const { connection } = await serve("mine", {
    tools: [fakeTool("hello")],
    call: (name, args) => ({
      content: [{ type: "text", text: `${name}: ${JSON.stringify(args)}` }],
    }),
  });
  const [hello] = await connection.tools();
  equal(await connection.invoker.invoke(hello!, { to: "you" }), 'hello: {"to":"you"}');
  throws(() => connection.invoker.invoke({ ...hello!, server: "theirs" }, {}), TypeError);
  await connection.close();
});

Deno.test("the handshake gives the server's identity and instructions", async () => {
  const { connection } = await serve("named", { title: "A Named Server" });
  deepEqual(connection.identity, { name: "named", version: "1.0.0", title: "A Named Server" });
  equal(connection.instructions, undefined);
  await connection.close();
});
