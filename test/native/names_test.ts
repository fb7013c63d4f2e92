import { deepEqual, equal, match, ok } from "node:assert/strict";
import { McpCatalog } from "../../mod.ts";
import { CLAUDE_SEARCH_TOOL, NATIVE_NAME, nativeNames } from "../../src/native/mod.ts";
import { liveMcpBench, realServerTools } from "../_data.ts";

const schema = { type: "object" };

for (
  const [label, catalog] of [
    ["the 14 real servers (228 tools)", () => new McpCatalog(realServerTools())],
    ["LiveMCPBench (527 tools)", () => {
      const { tools, servers } = liveMcpBench();
      return new McpCatalog(tools, { servers });
    }],
  ] as const
) {
  Deno.test(`every tool name of ${label} is valid, unique and maps back to its id`, () => {
    const c = catalog();
    ok(c.size === 228 || c.size === 527);
    const names = nativeNames(c);
    const seen = new Set<string>();
    for (const tool of c.tools) {
      const id = `${tool.server}/${tool.name}`;
      const name = names.nameOf(id)!;
      match(name, NATIVE_NAME);
      ok(!seen.has(name), `${name} twice`);
      ok(name !== CLAUDE_SEARCH_TOOL);
      seen.add(name);
      equal(names.idOf(name), id);
      match(names.namespaceOf(tool.server)!, NATIVE_NAME);
    }
    equal(seen.size, c.size);
  });
}

Deno.test("plain ids read as server__tool", () => {
  const names = nativeNames(
    new McpCatalog([{
      server: "github",
      name: "create_issue",
      description: "",
      inputSchema: schema,
    }]),
  );
  equal(names.nameOf("github/create_issue"), "github__create_issue");
  equal(names.namespaceOf("github"), "github");
});

Deno.test("ids that clean to the same text, long ids and invisible characters get distinct valid names", () => {
  const ids = [
    ["a.b", "c"],
    ["a_b", "c"],
    ["a", "b__c"],
    ["a__b", "c"],
    ["x", "y".repeat(120)],
    ["x", "y".repeat(121)],
    ["files", "re\u200Bad"],
    ["files", "re\u{E0041}ad"],
    ["日本", "ツール"],
  ];
  const c = new McpCatalog(
    ids.map(([server, name]) => ({
      server: server!,
      name: name!,
      description: "",
      inputSchema: schema,
    })),
  );
  const names = nativeNames(c);
  const given = ids.map(([s, n]) => names.nameOf(`${s}/${n}`)!);
  for (const name of given) match(name, NATIVE_NAME);
  equal(new Set(given).size, ids.length);
  deepEqual(given.map((name) => names.idOf(name)), ids.map(([s, n]) => `${s}/${n}`));
  equal(names.nameOf("a_b/c"), "a_b__c"); // only its own claim: stays readable
  equal(names.idOf("a__b__c"), undefined); // claimed by two ids: neither takes it
});

Deno.test("names stay distinct when crafted ids collide on their hash, in linear work", () => {
  // 5,000 ids whose cleaned text is the same (s__t followed by 13 underscores).
  const tools = Array.from({ length: 5000 }, (_, i) => ({
    server: "s",
    name: "t" + [...i.toString(2).padStart(13, "0")].map((bit) => bit === "0" ? "é" : "ü").join(""),
    description: "",
    inputSchema: schema,
  }));
  const c = new McpCatalog(tools);
  const names = nativeNames(c);
  const all = c.tools.map((t) => names.nameOf(`s/${t.name}`)!);
  equal(new Set(all).size, c.size);
  for (const name of all) match(name, NATIVE_NAME);
});

Deno.test("two ids with the same cleaned text and the same hash still get distinct names", () => {
  // Found by search: FNV-1a of these two ids is the same (0x36f8b87f).
  const pair = ["tüéüüüéüüüéüüééüéüü", "tüüüüüééüüéüüüüéüéé"];
  const c = new McpCatalog(
    pair.map((name) => ({ server: "s", name, description: "", inputSchema: schema })),
  );
  const names = nativeNames(c);
  const [a, b] = pair.map((name) => names.nameOf(`s/${name}`)!);
  equal(a, `s__t${"_".repeat(19)}36f8b87f`);
  equal(b, `s__t${"_".repeat(19)}36f8b87f_2`);
  equal(names.idOf(b!), `s/${pair[1]}`);
});
