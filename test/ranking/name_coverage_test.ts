import { deepEqual, equal, ok } from "node:assert/strict";
import { indexNames, NameCoverage } from "../../src/ranking/name_coverage.ts";
import { ServerMatch } from "../../src/ranking/server_match.ts";
import { createLexicalRanker } from "../../src/ranking/lexical_ranker.ts";
import type { McpTool } from "../../mod.ts";
import { tool } from "../_data.ts";

Deno.test("NameCoverage.coverage() counts the share of a tool's own name words the query reaches", () => {
  const names = new NameCoverage(
    [["create", "directory"], ["list", "directory"], ["git", "status"], ["git"]],
    [["files"], ["files"], ["git"], ["git"]],
  );
  // Partly reached words (an inflection, a related word) count by how fully they are reached.
  // A word reached by two query words counts once, at its best.
  const share = names.coverage([
    [{ term: "create", cover: 0.5 }],
    [{ term: "directory", cover: 1 }, { term: "git", cover: 1 }],
    [{ term: "create", cover: 0.25 }],
  ]);
  deepEqual([...share], [0.75, 0.5, 0, 1]); // git/status: "git" is its server's; git/git: all it has
  // A word no name holds changes nothing; no word reached, no share.
  deepEqual([...names.coverage([[{ term: "weather", cover: 1 }]])], [0, 0, 0, 0]);
});

Deno.test("NameCoverage.coverage() with servers: each share less its server's best", () => {
  const names = new NameCoverage(
    [["create", "directory"], ["list", "directory"], ["make", "folder"]],
    [["files"], ["files"], ["desk"]],
  );
  const reached = [[{ term: "create", cover: 1 }], [{ term: "directory", cover: 1 }]];
  const share = names.coverage(reached, Int32Array.of(0, 0, 1));
  deepEqual([...share], [0, -0.5, 0]);
});

Deno.test("NameCoverage.serverMatch() discounts only the server words a tool's own name holds", () => {
  const servers = new ServerMatch(
    new Map([
      ["trending", ["trending", "repositories"]],
      ["hub", ["hub", "rank", "platform"]],
      ["other", ["weather"]],
    ]),
  );
  const names = new NameCoverage(
    [["get", "trending", "repositories"], ["get", "trending", "developers"], ["get", "x", "rank"]],
    [["trending"], ["trending"], ["hub"]],
  );
  const serverOf = Int32Array.of(0, 0, 1);
  const words = ["trending", "x", "rank"];
  // Without a discount it is the server match itself.
  const plain = servers.match(words);
  deepEqual(
    [...names.serverMatch(words, servers, serverOf, 0)],
    [plain[0]!, plain[0]!, plain[1]!],
  );
  // With it, every tool here holds its server's matched word in its name: each loses that share.
  const discounted = names.serverMatch(words, servers, serverOf, 0.5);
  ok(Math.abs(discounted[0]! - 0.5 * plain[0]!) < 1e-12);
  ok(Math.abs(discounted[2]! - 0.5 * plain[1]!) < 1e-12);
  // Nothing matched: all 0.
  deepEqual([...names.serverMatch(["zzz"], servers, serverOf, 1)], [0, 0, 0]);
});

Deno.test("NameCoverage.serverMatch() reads a stored server table like a built one", () => {
  const built = new ServerMatch(new Map([["a", ["alpha", "beta"]], ["b", ["beta"]]]));
  const stored = ServerMatch.fromTable(built.table());
  const names = new NameCoverage([["alpha", "run"], ["beta"]], [["a"], ["b"]]);
  const serverOf = Int32Array.of(0, 1);
  deepEqual(
    [...names.serverMatch(["alpha", "beta"], stored, serverOf, 0.5)],
    [
      ...indexNames([["alpha", "run"], ["beta"]], [["a"], ["b"]]).serverMatch(
        ["alpha", "beta"],
        built,
        serverOf,
        0.5,
      ),
    ],
  );
});

// Each tool's score for a query with other settings (coverage re-ranking off: raw scores).
function scores(
  tools: readonly McpTool[],
  servers: { server: string; description: string }[],
  query: string,
  options: Parameters<typeof createLexicalRanker>[0],
): Record<string, number> {
  const ranker = createLexicalRanker({ nameWords: indexNames, ...options, diversity: 0 })(tools, {
    servers,
  });
  return Object.fromEntries(ranker.search(query, tools.length).map((hit) => [hit.id, hit.score]));
}

Deno.test("nameCoverage: the tool whose whole name the request says gains on a sibling", () => {
  const tools = [
    tool("fs", "create_directory", "Make a folder."),
    tool("fs", "list_directory", "Create a listing of every directory in a directory tree."),
  ];
  const ratio = (options: Parameters<typeof createLexicalRanker>[0]) => {
    const s = scores(tools, [], "create directory", options);
    return s["fs/create_directory"]! / s["fs/list_directory"]!;
  };
  // create_directory's name is all said (× 2 at weight 1), list_directory's half (× 1.5).
  const off = ratio({});
  ok(Math.abs(ratio({ nameCoverage: 1 }) / off - 2 / 1.5) < 1e-9);
  // Among siblings only: the best-covered sibling keeps its score, the other loses half.
  const plain = scores(tools, [], "create directory", {});
  const siblings = scores(tools, [], "create directory", {
    nameCoverage: 1,
    nameCoverageSiblings: true,
  });
  ok(Math.abs(siblings["fs/create_directory"]! - plain["fs/create_directory"]!) < 1e-9);
  ok(Math.abs(siblings["fs/list_directory"]! - plain["fs/list_directory"]! * 0.5) < 1e-9);
});

Deno.test("serverBoostNameDiscount: a server word in a tool's name is not counted a third time", () => {
  const tools = [
    tool("github-trending", "get_trending_repositories", "Trending repositories on GitHub."),
    tool("news-hub", "get_bilibili_rank", "The bilibili ranking."),
  ];
  const servers = [
    { server: "github-trending", description: "Trending repositories" },
    { server: "news-hub", description: "Hot lists of many platforms: bilibili, weibo, zhihu" },
  ];
  const query = "hot trending videos on bilibili";
  const at = (options: Parameters<typeof createLexicalRanker>[0]) =>
    scores(tools, servers, query, options);
  // The trending tool's server matches only "trending", which its name holds: at discount 1 it
  // scores as with no server boost at all.
  const trending = "github-trending/get_trending_repositories";
  ok(
    Math.abs(at({ serverBoostNameDiscount: 1 })[trending]! - at({ serverBoost: 0 })[trending]!) <
      1e-9,
  );
  // The bilibili tool's server also matches "hot", which its name does not hold: it keeps that.
  const bilibili = "news-hub/get_bilibili_rank";
  const ratio = (d: number) => {
    const s = at({ serverBoostNameDiscount: d });
    return s[bilibili]! / s[trending]!;
  };
  ok(ratio(0) < ratio(0.5) && ratio(0.5) < ratio(1));
  ok(at({ serverBoostNameDiscount: 1 })[bilibili]! > at({ serverBoost: 0 })[bilibili]!);
});

Deno.test("a ranker with the name signals restores only a snapshot that holds the name words", () => {
  const tools = [tool("fs", "create_directory"), tool("fs", "list_directory")];
  const plain = createLexicalRanker();
  const snapshot = plain(tools, { servers: [] }).snapshot!();
  ok(plain.restore!(tools, { servers: [] }, snapshot) !== undefined);
  for (const options of [{ nameCoverage: 0.2 }, { serverBoostNameDiscount: 0.5 }]) {
    const ranker = createLexicalRanker({ ...options, nameWords: indexNames });
    equal(ranker.restore!(tools, { servers: [] }, snapshot), undefined);
    const built = ranker(tools, { servers: [] });
    const restored = ranker.restore!(tools, { servers: [] }, built.snapshot!());
    ok(restored !== undefined);
    deepEqual(restored.search("create directory", 2), built.search("create directory", 2));
    // Without the name words both are off: the snapshot serves.
    ok(createLexicalRanker(options).restore!(tools, { servers: [] }, snapshot) !== undefined);
  }
});
