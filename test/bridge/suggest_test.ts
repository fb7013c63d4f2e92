// "Closest ids" for an unknown name from a bounded candidate set, so that a long name against a
// large catalogue cannot cost quadratic time.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { Injector, InvalidCatalogError, McpCatalog } from "../../mod.ts";
import type { ErrorAction } from "../../src/bridge/action.ts";
import { closestIds } from "../../src/bridge/suggest.ts";
import { MAX_NAME_CHARS, MAX_SUGGESTION_COMPARISONS } from "../../src/limits.ts";

const schema = { type: "object" };

// The reproduction's catalogue within the limits: 10,000 tools whose names are as long as MCP
// allows and alike (the same letters, so the letter-count filter cannot tell them apart).
function longNames(count: number): McpCatalog {
  const tools = [];
  for (let i = 0; i < count; i++) {
    const tail = i.toString(36).padStart(4, "0");
    tools.push({
      server: "s",
      name: "q".repeat(MAX_NAME_CHARS - 4) + tail,
      description: "",
      inputSchema: schema,
    });
  }
  return new McpCatalog(tools);
}

Deno.test("a tool name longer than MCP's 128 characters is refused by the catalogue", () => {
  for (
    const [server, name, field] of [["s", "q".repeat(198), "name"], [
      "s".repeat(129),
      "t",
      "server",
    ]]
  ) {
    try {
      new McpCatalog([{ server: server!, name: name!, description: "", inputSchema: schema }]);
      throw new Error("accepted");
    } catch (e) {
      ok(e instanceof InvalidCatalogError, String(e));
      equal(e.field, field);
      match(e.message, /at most 128 characters long \(MAX_NAME_CHARS/);
    }
  }
  equal(
    new McpCatalog([{ server: "s", name: "q".repeat(128), description: "", inputSchema: schema }])
      .size,
    1,
  );
});

Deno.test("closest ids compare at most MAX_SUGGESTION_COMPARISONS candidates of 10,000 long names", () => {
  const catalog = longNames(10_000);
  for (
    const name of [
      "s/" + "q".repeat(198),
      "s/" + "q".repeat(MAX_NAME_CHARS - 5) + "zz",
      "q".repeat(200),
    ]
  ) {
    const { compared } = closestIds(catalog, name);
    ok(compared <= MAX_SUGGESTION_COMPARISONS, `${compared} comparisons for ${name.length} chars`);
  }
  // One substitution from every "…000x": the smallest id wins the tie.
  const near = closestIds(catalog, "s/" + "q".repeat(MAX_NAME_CHARS - 4) + "000!");
  ok(near.compared <= MAX_SUGGESTION_COMPARISONS);
  deepEqual(near.ids[0], "s/" + "q".repeat(MAX_NAME_CHARS - 4) + "0000");
});

Deno.test("describe and execute of a 200-character unknown name answer unknown_tool on 10,000 tools", () => {
  const injector = new Injector(longNames(10_000));
  for (const action of ["describe", "execute"]) {
    const result = injector.route({ action, name: "s/" + "q".repeat(198) }) as ErrorAction;
    equal(result.action, "error");
    equal(result.code, "unknown_tool");
    match(result.message, /there is no tool "s\/q+…?" in this catalogue/);
  }
});

Deno.test("the candidate filters keep the suggestions of a plain scan on short names", () => {
  const catalog = new McpCatalog(
    ["post_message", "list_channels", "get_user", "post_reply", "geocode"].flatMap((name) =>
      ["slack", "maps"].map((server) => ({ server, name, description: "", inputSchema: schema }))
    ),
  );
  deepEqual(closestIds(catalog, "slack/post_mesage").ids, [
    "slack/post_message",
    "maps/post_message",
  ]);
  deepEqual(closestIds(catalog, "maps/gecode").ids, ["maps/geocode", "slack/geocode"]);
  deepEqual(closestIds(catalog, "xyz").ids, []);
});
