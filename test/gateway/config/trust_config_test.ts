import { deepEqual, equal, match, throws } from "node:assert/strict";
import { parsedConfig } from "../_config.ts";
import { globMatch, inProfile } from "../../../src/gateway/config/profiles.ts";
import { lockEntry, parseLock, review } from "../../../src/gateway/trust/lock.ts";

const SERVERS = { github: { url: "https://example.com/mcp" }, memory: { command: "mem" } };
const parse = (unfold: unknown) => parsedConfig({ mcpServers: SERVERS, unfold });

Deno.test("profiles, trust and lockFile are read from the unfold block", () => {
  const { options } = parse({
    trust: "pin",
    lockFile: "locks/work.json",
    profiles: { "work.laptop": { servers: ["github"], tools: ["github/*", "!github/delete_*"] } },
  });
  equal(options.trust, "pin");
  equal(options.lockFile, "locks/work.json");
  deepEqual(options.profiles?.["work.laptop"]?.tools, ["github/*", "!github/delete_*"]);
  equal(parse({}).options.trust, undefined);
});

Deno.test("profile mistakes are config errors at their place, naming the closest", () => {
  throws(
    () => parse({ trust: "strict" }),
    /"\/unfold\/trust": must be one of "off", "notify", "pin"/,
  );
  throws(
    () => parse({ profiles: { "has space": {} } }),
    /"\/unfold\/profiles\/has space": a profile name/,
  );
  throws(
    () => parse({ profiles: { p: { servers: ["githb"] } } }),
    /"\/unfold\/profiles\/p\/servers\/0": names the server "githb", which is not in mcpServers; did you mean "github"\?/,
  );
  throws(
    () => parse({ profiles: { p: { tools: ["!memroy/*"] } } }),
    /"\/unfold\/profiles\/p\/tools\/0": names the server "memroy".*did you mean "memory"/,
  );
  throws(() => parse({ profiles: { p: { tools: ["github"] } } }), /must be "server\/tool"/);
  throws(() => parse({ profiles: { p: { pinned: ["github/*"] } } }), /a tool id, not a pattern/);
  throws(() => parse({ profiles: { p: { colour: 1 } } }), /unknown field: a profile takes/);
  throws(() => parse({ profiles: { p: { availableContextTokens: 0 } } }), /positive integer/);
});

Deno.test("globs: * within a part, includes then excludes, no regular expression to blow up on hostile names", () => {
  equal(globMatch("*_issue", "create_issue"), true);
  equal(globMatch("a*b*c", "aXbYc"), true);
  equal(globMatch("a*b*c", "aXbY"), false);
  // Never across the slash: the server part and the tool part are matched apart.
  equal(inProfile({ name: "p", tools: ["git*/x"] }, { server: "github", name: "x" }), true);
  equal(inProfile({ name: "p", tools: ["!memory/*"] }, { server: "github", name: "x" }), true);
  equal(inProfile({ name: "p", tools: ["!memory/*"] }, { server: "memory", name: "x" }), false);
  const hostile = "a".repeat(100_000);
  equal(globMatch("*a*a*a*a*a*b", hostile), false);
});

Deno.test("review names the fields that changed, and a broken lock is refused", async () => {
  const tool = {
    server: "s",
    name: "t",
    description: "Reads a file",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
  };
  const lock = { version: 2 as const, tools: { "s/t": lockEntry(tool) } };
  deepEqual(await review([tool], lock), []);
  const pulled = {
    ...tool,
    annotations: { readOnlyHint: false },
    inputSchema: { type: "object", properties: { to: { type: "string" } } },
  };
  deepEqual((await review([pulled], lock))[0]?.fields, ["inputSchema", "annotations"]);
  deepEqual((await review([{ ...tool, name: "u" }], lock))[0]?.change, "new");
  match((parseLock('{"version":3,"tools":{}}') as { error: string }).error, /not an unfold lock/);
  match((parseLock('{"version":1,"tools":{"a/b":1}}') as { error: string }).error, /"a\/b"/);
});
