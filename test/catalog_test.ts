import { deepEqual, equal, ok, throws } from "node:assert/strict";
import {
  InvalidCatalogError,
  McpCatalog,
  type McpTool,
  type RankerFactory,
  toolId,
} from "../mod.ts";
import { liveMcpBench, realServerTools, shuffled, tool } from "./_data.ts";

function invalid(tools: unknown[], field: string, pattern: RegExp): void {
  throws(() => new McpCatalog(tools as McpTool[]), (e: unknown) => {
    ok(e instanceof InvalidCatalogError, String(e));
    equal(e.field, field);
    ok(pattern.test(e.message), e.message);
    return true;
  });
}

Deno.test("McpCatalog rejects an empty server, naming the entry and the rule", () => {
  invalid([tool("a", "x"), { ...tool("a", "y"), server: "" }], "server", /catalog\[1\].*non-empty/);
});

Deno.test("McpCatalog rejects a server name with a slash", () => {
  invalid([tool("a/b", "x")], "server", /catalog\[0\].*"\/"/);
});

Deno.test("McpCatalog rejects control characters in a server or tool name", () => {
  invalid([tool("a\nb", "x")], "server", /control characters/);
  invalid([tool("a", "x\u2028y")], "name", /"a\/x\\u2028y".*control characters/);
});

Deno.test("McpCatalog rejects an empty or missing tool name", () => {
  invalid([tool("a", "")], "name", /catalog\[0\].*non-empty/);
  invalid([{ server: "a", description: "", inputSchema: { type: "object" } }], "name", /non-empty/);
});

Deno.test("McpCatalog rejects a description that is not a string, naming the id", () => {
  invalid(
    [{ ...tool("a", "x"), description: undefined }],
    "description",
    /catalog\[0\] \("a\/x"\)/,
  );
  invalid([{ ...tool("a", "x"), description: 3 }], "description", /must be a string/);
});

Deno.test("McpCatalog rejects an input schema that is not an object schema", () => {
  for (const inputSchema of [undefined, null, [], "object", { type: "string" }, {}]) {
    invalid([{ ...tool("a", "x"), inputSchema }], "inputSchema", /"type": "object"/);
  }
});

Deno.test("McpCatalog rejects a duplicate id, naming the second entry", () => {
  invalid(
    [tool("a", "x"), tool("b", "x"), tool("a", "x")],
    "name",
    /catalog\[2\] \("a\/x"\).*repeats/,
  );
});

Deno.test("McpCatalog rejects entries that are not objects and optional fields of the wrong type", () => {
  invalid([null], "(entry)", /catalog\[0\]/);
  invalid([{ ...tool("a", "x"), title: 1 }], "title", /string/);
  invalid([{ ...tool("a", "x"), annotations: "yes" }], "annotations", /object/);
  throws(() => new McpCatalog("nope" as unknown as McpTool[]), TypeError);
});

Deno.test("McpCatalog rejects server information for unknown or repeated servers", () => {
  const tools = [tool("a", "x")];
  throws(() => new McpCatalog(tools, { servers: [{ server: "b" }] }), /servers\[0\].*has tools/);
  throws(
    () => new McpCatalog(tools, { servers: [{ server: "a" }, { server: "a" }] }),
    /servers\[1\].*repeats/,
  );
  throws(
    () =>
      new McpCatalog(tools, { servers: [{ server: "a", description: 5 as unknown as string }] }),
    InvalidCatalogError,
  );
});

Deno.test("McpCatalog accepts the real catalogues", () => {
  equal(new McpCatalog(realServerTools()).size, 228);
  const { tools, servers } = liveMcpBench();
  equal(new McpCatalog(tools, { servers }).size, 527);
});

Deno.test("McpCatalog.get() finds a tool by full id only", () => {
  const catalog = new McpCatalog([tool("github", "create_issue")]);
  equal(catalog.get("github/create_issue")?.server, "github");
  equal(catalog.get("create_issue"), undefined);
  equal(catalog.get("GitHub/create_issue"), undefined);
});

Deno.test("McpCatalog keeps tools sorted by id whatever the input order", () => {
  const tools = realServerTools();
  const ids = new McpCatalog(tools).tools.map(toolId);
  deepEqual(ids, [...ids].sort());
  deepEqual(new McpCatalog(shuffled(tools, 7)).tools.map(toolId), ids);
});

Deno.test("McpCatalog.search() ranks an exact id first", () => {
  const catalog = new McpCatalog(realServerTools());
  for (const t of catalog.tools) {
    equal(catalog.search(toolId(t), 5)[0]?.id, toolId(t), toolId(t));
  }
});

Deno.test("McpCatalog.search() ranks a unique exact name first, on both real catalogues", () => {
  const { tools, servers } = liveMcpBench();
  for (const catalog of [new McpCatalog(realServerTools()), new McpCatalog(tools, { servers })]) {
    const counts = new Map<string, number>();
    for (const t of catalog.tools) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
    let checked = 0;
    for (const t of catalog.tools) {
      if (counts.get(t.name) !== 1) continue;
      equal(catalog.search(t.name, 5)[0]?.id, toolId(t), t.name);
      checked++;
    }
    ok(checked > 200);
  }
});

Deno.test("McpCatalog.search() does not promote a name several servers share", () => {
  const catalog = new McpCatalog([tool("a", "search", "Find a"), tool("b", "search", "Find b")]);
  const ids = catalog.search("search", 5).map((m) => m.id);
  deepEqual(ids, ["a/search", "b/search"]);
});

Deno.test("McpCatalog.search() returns matches with id, server, name, description and score", () => {
  const catalog = new McpCatalog([tool("maps", "geocode", "Address to coordinates")]);
  deepEqual(catalog.search("coordinates"), [{
    id: "maps/geocode",
    server: "maps",
    name: "geocode",
    description: "Address to coordinates",
    score: catalog.search("coordinates")[0]!.score,
  }]);
  ok(catalog.search("coordinates")[0]!.score > 0);
});

Deno.test("McpCatalog.search() respects the limit and rejects a bad one", () => {
  const catalog = new McpCatalog(realServerTools());
  equal(catalog.search("file", 3).length, 3);
  equal(catalog.search("github/create_issue", 1).length, 1);
  throws(() => catalog.search("file", 0), RangeError);
  throws(() => catalog.search("file", 1.5), RangeError);
  deepEqual(catalog.search("   "), []);
});

Deno.test("McpCatalog.search() gives identical results whatever the input order", () => {
  const tools = realServerTools();
  const a = new McpCatalog(tools);
  const b = new McpCatalog(shuffled(tools, 42));
  for (const q of ["screenshot", "read_file", "create pull request", "notion page"]) {
    deepEqual(b.search(q, 10), a.search(q, 10));
  }
});

Deno.test("McpCatalog uses the ranker it is given, and ignores ids the ranker invents", () => {
  const calls: string[] = [];
  const ranker: RankerFactory = (tools, { servers }) => {
    calls.push(`index ${tools.length} ${servers.length}`);
    return {
      search: (query) => {
        calls.push(`search ${query}`);
        return [{ id: "nowhere/x", score: 9 }, { id: "b/y", score: 1 }];
      },
    };
  };
  const catalog = new McpCatalog([tool("a", "x"), tool("b", "y")], {
    ranker,
    servers: [{ server: "a", title: "A" }],
  });
  deepEqual(catalog.search("anything", 5).map((m) => m.id), ["b/y"]);
  catalog.search("again", 5);
  deepEqual(calls, ["index 2 1", "search anything", "search again"]);
});

Deno.test("InvalidCatalogError carries a JSON pointer to the entry's field", () => {
  for (
    const [tools, servers, pointer] of [
      [[tool("a", "x"), { ...tool("a", "y"), inputSchema: {} }], [], "/catalog/1/inputSchema"],
      [[null], [], "/catalog/0"],
      [[tool("a", "x")], [{ server: "zzz" }], "/servers/0/server"],
    ] as const
  ) {
    throws(
      () => new McpCatalog(tools as unknown as McpTool[], { servers }),
      (e: unknown) => e instanceof InvalidCatalogError && e.pointer === pointer,
      pointer,
    );
  }
});

Deno.test("trust in a stored list is by type for one restore, never remembered for the list", () => {
  const list = [{ server: "a/b", name: "c", description: "", inputSchema: { type: "object" } }];
  // A store's word is taken once, for that catalogue…
  equal(McpCatalog.restore(list as unknown as McpCatalog["tools"]).size, 1);
  // …and the same list given to the constructor is validated as any other.
  throws(() => new McpCatalog(list), InvalidCatalogError);
  const result = McpCatalog.create(list);
  equal(result.ok ? "" : result.error.field, "server");
});

Deno.test("a restored catalogue puts its schema pass off until a tool is looked up, and decides as the original did", () => {
  // A fresh isolate answering a search by reference needs no schema: the pass over 2,000
  // distinct patterns is paid by the first describe or execute, not by restoring.
  const tools = Array.from({ length: 2_000 }, (_, i) => ({
    server: "s",
    name: `t${i}`,
    description: "",
    inputSchema: {
      type: "object",
      properties: { q: { type: "string", pattern: `^[a-z]{1,1000}${i}$` } },
    },
  }));
  const original = new McpCatalog(tools);
  const parsed = JSON.parse(JSON.stringify(original.tools));
  // Every read of a schema member is counted, so the test sees whether restoring walked the
  // schemas (a clock would, but only on an idle machine).
  let reads = 0;
  const counted = (value: Record<string, unknown>): Record<string, unknown> =>
    new Proxy(value, {
      get(target, key, receiver) {
        reads += 1;
        const member = Reflect.get(target, key, receiver);
        return typeof member === "object" && member !== null
          ? counted(member as Record<string, unknown>)
          : member;
      },
    });
  for (const tool of parsed) tool.inputSchema = counted(tool.inputSchema);
  const restored = McpCatalog.restore(parsed);
  equal(reads, 0, "restoring read no schema");
  ok(restored.get("s/t1") !== undefined);
  ok(reads > 0, "the first lookup inspected the schemas");
  // The same inspection: the same patterns are left to their servers.
  deepEqual(restored.warnings, original.warnings);
});
