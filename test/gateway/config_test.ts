import { deepEqual, equal, fail } from "node:assert/strict";
import {
  type GatewayConfig,
  GatewayConfigError,
  parseGatewayConfig,
} from "../../src/gateway/config.ts";

function accepted(input: unknown, env: Record<string, string> = {}): GatewayConfig {
  const parsed = parseGatewayConfig(input, env);
  return parsed.ok ? parsed.value : fail(`the config was refused: ${parsed.error.message}`);
}

function refused(input: unknown, env: Record<string, string> = {}): GatewayConfigError {
  const parsed = parseGatewayConfig(input, env);
  return parsed.ok ? fail("the config was accepted") : parsed.error;
}

function pointerOf(input: unknown, env: Record<string, string> = {}): string {
  return refused(input, env).pointer;
}

Deno.test("parseGatewayConfig() answers a bad config as a value, never by throwing", () => {
  for (
    const input of [
      "not json",
      "[]",
      { mcpServers: { a: { command: "" } } },
      { mcpServers: {}, unfold: { availableContextTokens: 0 } },
      { mcpServers: {}, unfold: { bridgeName: "no spaces" } },
    ]
  ) {
    const parsed = parseGatewayConfig(input, {});
    equal(parsed.ok, false, JSON.stringify(input));
    equal(!parsed.ok && parsed.error instanceof GatewayConfigError, true);
  }
  equal(
    pointerOf({ mcpServers: {}, unfold: { availableContextTokens: 0 } }),
    "/unfold/availableContextTokens",
  );
});

Deno.test("parseGatewayConfig() reads stdio and HTTP servers, expanding ${VAR} from the environment", () => {
  const config = accepted({
    mcpServers: {
      fs: {
        command: "npx",
        args: ["-y", "server-filesystem", "${HOME}/notes"],
        env: { A: "${A:-x}" },
      },
      gh: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
      off: { command: "nothing", disabled: true },
    },
    unfold: { pinned: ["gh/create_issue"], bridgeName: "tools", callTimeoutMs: null },
  }, { HOME: "/home/u", HOST: "example.com", TOKEN: "t0k" });
  deepEqual(config.servers, [
    {
      server: "fs",
      command: "npx",
      args: ["-y", "server-filesystem", "/home/u/notes"],
      env: { A: "x" },
    },
    { server: "gh", url: "https://example.com/mcp", headers: { Authorization: "Bearer t0k" } },
  ]);
  deepEqual(config.options, {
    pinned: ["gh/create_issue"],
    bridgeName: "tools",
    callTimeoutMs: null,
  });
});

Deno.test("parseGatewayConfig() names the place of each mistake with a JSON pointer", () => {
  equal(pointerOf("{not json"), "");
  equal(pointerOf({}), "/mcpServers");
  equal(pointerOf({ mcpServers: { "a/b": { command: "x" } } }), "/mcpServers/a~1b");
  equal(pointerOf({ mcpServers: { a: { command: "" } } }), "/mcpServers/a/command");
  equal(pointerOf({ mcpServers: { a: { command: "x", url: "http://h" } } }), "/mcpServers/a");
  equal(
    pointerOf({ mcpServers: { a: { command: "x", args: ["ok", 3] } } }),
    "/mcpServers/a/args/1",
  );
  equal(pointerOf({ mcpServers: { a: { url: "ftp://h" } } }), "/mcpServers/a/url");
  equal(
    pointerOf({ mcpServers: { a: { url: "http://h", headers: { X: "${NOPE}" } } } }),
    "/mcpServers/a/headers/X",
  );
  equal(pointerOf({ mcpServers: { a: { url: "http://h", colour: 1 } } }), "/mcpServers/a/colour");
  equal(pointerOf({ mcpServers: {}, unfold: { bridgeName: "has space" } }), "/unfold/bridgeName");
  equal(
    pointerOf({ mcpServers: {}, unfold: { availableContextTokens: -1 } }),
    "/unfold/availableContextTokens",
  );
  equal(
    pointerOf({ mcpServers: {}, unfold: { disclosure: ["manifest", "all"] } }),
    "/unfold/disclosure/1",
  );
  equal(pointerOf({ mcpServers: {}, unfold: { pinned: ["nobody/x"] } }), "/unfold/pinned/0");
  equal(pointerOf({ mcpServers: {}, unfold: { callTimeoutMs: 0 } }), "/unfold/callTimeoutMs");
  equal(pointerOf({ mcpServers: {}, extra: true }), "/extra");
});

Deno.test("parseGatewayConfig() errors are one line that says where and why", () => {
  equal(
    refused({ mcpServers: { gh: { url: "http://h", headers: { A: "${GH_TOKEN}" } } } }).message,
    'Invalid gateway config at "/mcpServers/gh/headers/A": the environment variable GH_TOKEN is not set',
  );
});

Deno.test("parseGatewayConfig() refuses pinned ids that would be listed under one name, naming both", () => {
  const error = refused({
    mcpServers: { a: { command: "x" }, a__b: { command: "y" } },
    unfold: { pinned: ["a/b__c", "a__b/c"] },
  });
  equal(error.pointer, "/unfold/pinned/1");
  equal(error.message.includes('"a__b/c" and "a/b__c" would both be listed as "a__b__c"'), true);
});

Deno.test("parseGatewayConfig() reads the startup timeout and the restart backoff, and refuses bad ones", () => {
  const config = accepted({
    mcpServers: { a: { command: "x" } },
    unfold: { startupTimeoutMs: 1_000, restartDelayMs: 50, restartMaxDelayMs: 5_000 },
  }, {});
  deepEqual(
    [
      config.options.startupTimeoutMs,
      config.options.restartDelayMs,
      config.options.restartMaxDelayMs,
    ],
    [1_000, 50, 5_000],
  );
  equal(
    pointerOf({ mcpServers: { a: { command: "x" } }, unfold: { startupTimeoutMs: 0 } }),
    "/unfold/startupTimeoutMs",
  );
  equal(
    pointerOf({ mcpServers: { a: { command: "x" } }, unfold: { restartDelayMs: "1s" } }),
    "/unfold/restartDelayMs",
  );
});

Deno.test("parseGatewayConfig() reads when the upstreams start and how long a lazy one may idle, and refuses bad ones", () => {
  const config = accepted({
    mcpServers: { a: { command: "x" } },
    unfold: { start: "lazy", idleTimeoutMs: 60_000 },
  });
  deepEqual([config.options.start, config.options.idleTimeoutMs], ["lazy", 60_000]);
  const eager = accepted({ mcpServers: { a: { command: "x" } } });
  deepEqual([eager.options.start, eager.options.idleTimeoutMs], [undefined, undefined]);
  equal(
    refused({ mcpServers: {}, unfold: { start: "later" } }).message,
    'Invalid gateway config at "/unfold/start": must be one of "eager", "lazy"',
  );
  for (const idle of [0, -5, 1.5, "600000", null, 2 ** 31]) {
    equal(
      refused({ mcpServers: {}, unfold: { idleTimeoutMs: idle } }).message,
      'Invalid gateway config at "/unfold/idleTimeoutMs": must be a whole positive number of milliseconds, at most 2147483647',
      String(idle),
    );
  }
});
