/**
 * Test data: the real-world catalogues in `testdata/` (or the directory in `UNFOLD_DATA_DIR`).
 *
 * @module
 */

import type { McpTool, ServerInfo } from "../mod.ts";
import { MAX_NAME_CHARS } from "../src/limits.ts";
import type { SessionEvent } from "../src/session/state.ts";

const CANDIDATES = [
  Deno.env.get("UNFOLD_DATA_DIR"),
  new URL("../testdata", import.meta.url).pathname,
].filter((dir): dir is string => dir !== undefined && dir !== "");

/** The data directory: the first candidate that holds the real-server catalogue. */
export const DATA_DIR: string = CANDIDATES.find((dir) => {
  try {
    return Deno.statSync(`${dir}/real-servers/tools.json`).isFile;
  } catch {
    return false;
  }
}) ?? (() => {
  throw new Error(
    `Cannot find the test data (real-servers/tools.json) in ${
      CANDIDATES.join(", ")
    }: set UNFOLD_DATA_DIR`,
  );
})();

/** The 14 real npm MCP servers (228 tools) as one flat tool list, in file order. */
export function realServerTools(): McpTool[] {
  const raw = JSON.parse(Deno.readTextFileSync(`${DATA_DIR}/real-servers/tools.json`)) as Record<
    string,
    Array<Omit<McpTool, "server"> & { description?: string }>
  >;
  return Object.entries(raw).flatMap(([server, tools]) =>
    tools.map((tool) => ({ ...tool, server, description: tool.description ?? "" }))
  );
}

/** The LiveMCPBench catalogue (527 tools) and its server information. */
export function liveMcpBench(): { tools: McpTool[]; servers: ServerInfo[] } {
  const tools = JSON.parse(
    Deno.readTextFileSync(`${DATA_DIR}/livemcpbench/catalogue.json`),
  ) as McpTool[];
  const servers = (JSON.parse(
    Deno.readTextFileSync(`${DATA_DIR}/livemcpbench/servers.json`),
  ) as Array<ServerInfo & Record<string, unknown>>).map(({ server, title, description }) => ({
    server,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
  }));
  return { tools, servers };
}

/** A deterministic shuffle (a seeded linear congruential generator), for order-independence tests. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A small object-schema tool for tests. */
export function tool(
  server: string,
  name: string,
  description = "",
  properties: Record<string, unknown> = {},
): McpTool {
  return { server, name, description, inputSchema: { type: "object", properties } };
}

/**
 * The i-th describe of a tool whose name is as long as MCP allows: each one adds its id and hashes
 * to a session's state, so a loop of them fills a session to `MAX_SESSION_BYTES`.
 */
export function longDescribe(i: number): SessionEvent {
  return {
    kind: "describe",
    id: `s/${`${i}`.padStart(MAX_NAME_CHARS, "n")}`,
    schemaHash: "0123456789abcdef",
    bodyHash: `${i}`.padStart(16, "0"),
    resend: false,
  };
}
