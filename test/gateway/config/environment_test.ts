import { deepEqual, equal } from "node:assert/strict";
import { parsedConfig } from "../_config.ts";
import {
  configEnvironment,
  PASSED_ENV_VARS,
  withPassedEnvironment,
} from "../../../src/gateway/config/environment.ts";

Deno.test("${CONFIG_DIR} is the config file's folder, whatever the environment says", () => {
  const env = configEnvironment({ CONFIG_DIR: "/elsewhere" }, "examples/gateway/mcp.json", "/repo");
  const config = parsedConfig(
    '{"mcpServers":{"fs":{"command":"deno","args":["${CONFIG_DIR}/data"],"cwd":"${CONFIG_DIR}"}}}',
    env,
  );
  deepEqual(config.servers[0], {
    server: "fs",
    command: "deno",
    args: ["/repo/examples/gateway/data"],
    env: {},
    cwd: "/repo/examples/gateway",
  });
  equal(configEnvironment({}, "mcp.json", "/").CONFIG_DIR, "/");
  equal(configEnvironment({}, "/mcp.json", "/tmp").CONFIG_DIR, "/");
});

Deno.test("stdio upstreams get the proxy and CA variables that are set; their own env wins", () => {
  const env: Record<string, string> = { PATH_SECRET: "x", API_KEY: "k", NO_PROXY: "" };
  for (const name of PASSED_ENV_VARS) if (name !== "NO_PROXY") env[name] = `host-${name}`;
  const [stdio, http] = withPassedEnvironment([
    { server: "a", command: "a", args: [], env: { HTTPS_PROXY: "mine" } },
    { server: "b", url: "https://example.com/mcp", headers: {} },
  ], env);
  const expected: Record<string, string> = {};
  for (const name of PASSED_ENV_VARS) if (name !== "NO_PROXY") expected[name] = `host-${name}`;
  expected.HTTPS_PROXY = "mine";
  deepEqual(stdio, { server: "a", command: "a", args: [], env: expected });
  deepEqual(http, { server: "b", url: "https://example.com/mcp", headers: {} });
});

Deno.test("a stdio upstream run by deno shares the user's DENO_DIR and CA settings", () => {
  const [server] = withPassedEnvironment(
    [{ server: "a", command: "deno", args: ["run", "-A", "npm:x"], env: {} }],
    { DENO_DIR: "/home/me/.cache/deno", DENO_TLS_CA_STORE: "system", SSL_CERT_DIR: "/etc/ssl" },
  );
  deepEqual((server as { env: Record<string, string> }).env, {
    DENO_DIR: "/home/me/.cache/deno",
    DENO_TLS_CA_STORE: "system",
    SSL_CERT_DIR: "/etc/ssl",
  });
});
