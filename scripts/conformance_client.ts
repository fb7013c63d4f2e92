/**
 * The client the official MCP conformance suite drives: unfold's own upstream client
 * (`connectHttp`) behind its OAuth layer (`withOAuth` + `StoredOAuthProvider`), authorizing by
 * fetching the authorization URL, since the suite's authorization server approves at once.
 *
 * ```sh
 * deno run -A --node-modules-dir=auto npm:@modelcontextprotocol/conformance client \
 *   --command "deno run -A --node-modules-dir=auto scripts/conformance_client.ts" --scenario auth/metadata-default
 * ```
 *
 * The suite passes the server URL as the last argument, the scenario in
 * `MCP_CONFORMANCE_SCENARIO` and, for pre-registration, the client's credentials in
 * `MCP_CONFORMANCE_CONTEXT`.
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { connectHttp } from "../src/mcp/http_client.ts";
import { withOAuth } from "../src/mcp/oauth/fetch.ts";
import { type OAuthSettings, StoredOAuthProvider } from "../src/mcp/oauth/provider.ts";
import { memoryOAuthStore } from "../src/mcp/oauth/store.ts";

// The client ID metadata document the suite's authorization server accepts as a client ID.
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
// Never opened: the suite's server redirects straight back, and the script reads the redirect.
const REDIRECT_URL = "http://localhost:3000/callback";

async function main(): Promise<void> {
  const scenario = Deno.env.get("MCP_CONFORMANCE_SCENARIO") ?? "";
  const url = Deno.args.at(-1);
  if (url === undefined) throw new TypeError("Usage: conformance_client.ts SERVER_URL");
  const settings: OAuthSettings = { clientMetadataUrl: CLIENT_METADATA_URL };
  if (scenario === "auth/pre-registration") {
    const context = JSON.parse(Deno.env.get("MCP_CONFORMANCE_CONTEXT") ?? "{}");
    settings.clientId = String(context.client_id);
    settings.clientSecret = String(context.client_secret);
    delete settings.clientMetadataUrl;
  }
  const server = "conformance";
  const provider = new StoredOAuthProvider({
    server,
    url,
    store: memoryOAuthStore(),
    redirectUrl: REDIRECT_URL,
    settings,
  });
  const fetch = withOAuth({ server, url, provider, authorize: approve });
  // The suite's 2026-07-28 scenarios want the newer revision, which the client offers on "auto".
  const connection = await connectHttp({ server, url }, { fetch, versionNegotiation: "auto" });
  try {
    const tools = await connection.tools();
    const names = new Set(tools.map((tool) => tool.name));
    if (names.has("add_numbers")) await connection.call("add_numbers", { a: 5, b: 3 });
    if (names.has("test-tool")) await connection.call("test-tool", {});
  } finally {
    await connection.close();
  }
}

// The suite's authorization endpoint answers with a redirect to our callback at once.
async function approve(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (location === null) {
    throw new Error(`The authorization endpoint answered ${response.status} without a redirect`);
  }
  return new URL(location, authorizationUrl);
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
