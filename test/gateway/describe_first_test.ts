import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { GatewayConfigError } from "../../src/gateway/config/parse.ts";
import { parsedConfig } from "./_config.ts";
import { Gateway } from "../../src/gateway/gateway.ts";
import type { UpstreamPool } from "../../src/gateway/pool/upstreams.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import type { McpTool } from "../../src/tool.ts";

// One tool whose calls echo their arguments.
const ECHO: McpTool = {
  server: "s",
  name: "echo",
  description: "Echoes its text",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  },
};
const POOL: UpstreamPool = {
  tools: () => [ECHO],
  statuses: () => [{ server: "s", state: "ready", tools: 1 }],
  forward: (tool, args) =>
    Promise.resolve({ content: [{ type: "text", text: `${tool.name} ${JSON.stringify(args)}` }] }),
  onChange: () => () => {},
  close: () => Promise.resolve(),
};

// A fresh session for each call: what a one-shot client such as the Inspector CLI does.
async function oneShot(
  describeFirst: "enforce" | "off" | undefined,
  args: unknown,
  pinned: string[] = [],
) {
  const gateway = await Gateway.open(POOL, {
    options: { pinned, ...(describeFirst === undefined ? {} : { describeFirst }) },
    store: new MemorySessionStore(),
  });
  try {
    const outcome = await gateway.call("mcp", {
      action: "execute",
      name: "s/echo",
      arguments: args,
    }, { session: { tenant: "", session: crypto.randomUUID() } });
    ok(outcome.ok);
    return outcome.result;
  } finally {
    await gateway.close();
  }
}

function text(result: { readonly content?: readonly unknown[] | undefined }): string {
  return (result.content?.[0] as { text: string }).text;
}

Deno.test("describeFirst off: a valid execute in a new session runs at once", async () => {
  const result = await oneShot("off", { text: "hi" });
  equal(result.isError, undefined);
  equal(text(result), 'echo {"text":"hi"}');
});

Deno.test("describeFirst off: arguments that break the schema are not run", async () => {
  const result = await oneShot("off", { txt: "hi" });
  equal(result.isError, true);
  ok(text(result).startsWith("Error invalid_arguments"), text(result));
  ok(text(result).includes('required property "text"'), text(result));
});

Deno.test("describeFirst enforce (the default): the first execute gets the schema", async () => {
  for (const mode of ["enforce", undefined] as const) {
    const result = await oneShot(mode, { text: "hi" });
    equal(result.isError, true);
    ok(text(result).startsWith("Error describe_first"), text(result));
    ok(text(result).includes('"required":["text"]'), text(result));
  }
});

Deno.test("describeFirst enforce: a pinned tool, whose schema the host lists, executes through the bridge at once", async () => {
  for (const mode of ["enforce", undefined] as const) {
    const result = await oneShot(mode, { text: "hi" }, ["s/echo"]);
    equal(result.isError, undefined, text(result));
    equal(text(result), 'echo {"text":"hi"}');
  }
});

Deno.test("describeFirst enforce: a pinned tool's arguments are still checked against its schema", async () => {
  const result = await oneShot("enforce", { txt: "hi" }, ["s/echo"]);
  equal(result.isError, true);
  ok(text(result).startsWith("Error invalid_arguments"), text(result));
  ok(text(result).includes('required property "text"'), text(result));
});

Deno.test("the config takes describeFirst enforce or off, and names the choices otherwise", () => {
  const config = (value: unknown) =>
    parsedConfig({ mcpServers: {}, unfold: { describeFirst: value } });
  deepEqual(config("off").options.describeFirst, "off");
  deepEqual(config("enforce").options.describeFirst, "enforce");
  throws(
    () => config("never"),
    (e) =>
      e instanceof GatewayConfigError &&
      e.message ===
        'Invalid gateway config at "/unfold/describeFirst": must be one of "enforce", "off"',
  );
});
