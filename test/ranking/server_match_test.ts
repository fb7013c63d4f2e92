import { deepEqual, equal, ok } from "node:assert/strict";
import { ServerMatch } from "../../src/ranking/server_match.ts";

const SERVERS = new ServerMatch(
  new Map([
    ["osm", ["maps", "geocoding", "mcp", "server"]],
    ["git", ["git", "repository", "mcp", "server"]],
    ["fs", ["files", "mcp"]],
  ]),
);

Deno.test("ServerMatch scores servers by the rarity of the query words they hold, best = 1", () => {
  const scores = SERVERS.match(["maps", "server"]);
  equal(scores[SERVERS.indexOf("osm")], 1);
  const git = scores[SERVERS.indexOf("git")]!;
  ok(git > 0 && git < 1);
  equal(scores[SERVERS.indexOf("fs")], 0);
});

Deno.test("ServerMatch gives rare words more weight than words most servers hold", () => {
  const scores = SERVERS.match(["repository", "mcp"]);
  equal(scores[SERVERS.indexOf("git")], 1);
  ok(scores[SERVERS.indexOf("osm")]! < 0.5);
});

Deno.test("ServerMatch answers all zeros when no server holds a query word", () => {
  deepEqual([...SERVERS.match(["weather"])], [0, 0, 0]);
  deepEqual([...SERVERS.match([])], [0, 0, 0]);
  equal(SERVERS.indexOf("nope"), -1);
});

Deno.test("ServerMatch.fromTable() scores exactly as the index that made the table", () => {
  const servers = new ServerMatch(
    new Map([
      ["osm", ["maps", "geocoding", "server", "maps"]],
      ["git", ["git", "repository", "server"]],
      ["files", ["files", "read", "write", "server"]],
    ]),
  );
  const table = ServerMatch.fromTable(structuredClone(servers.table()));
  for (const query of [["maps"], ["server", "git"], ["read", "files", "maps"], ["none"], []]) {
    deepEqual(table.match(query), servers.match(query), query.join(" "));
  }
  equal(table.indexOf("files"), servers.indexOf("files"));
  equal(table.indexOf("nope"), -1);
});
