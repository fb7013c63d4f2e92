import { deepEqual, equal, ok } from "node:assert/strict";
import { createLexicalRanker, LEXICAL_DEFAULTS } from "../../src/ranking/lexical_ranker.ts";
import { lexicalRanker, type McpTool } from "../../mod.ts";
import { englishLexicon } from "../../src/ranking/lexicon.ts";
import { englishVectors } from "../../src/ranking/vectors.ts";
import { rankerContract } from "../_contracts/ranker_contract.ts";
import { tool } from "../_data.ts";

rankerContract("lexicalRanker", lexicalRanker);
rankerContract(
  "lexicalRanker with vectors and thesaurus",
  createLexicalRanker({ vectors: englishVectors(), thesaurus: englishLexicon() }),
);

const ids = (hits: { id: string }[]) => hits.map((hit) => hit.id);

Deno.test("lexicalRanker ignores markup tags an agent wraps its query in", () => {
  const ranker = lexicalRanker([
    tool("chat", "post_message", "Post a message"),
    tool("kit", "tool_assistant", "An assistant"),
  ], { servers: [] });
  deepEqual(ids(ranker.search("<tool_assistant>\npost a message\n</tool_assistant>", 5)), [
    "chat/post_message",
  ]);
  const raw = createLexicalRanker({ stripMarkup: false })([
    tool("chat", "post_message", "Post a message"),
    tool("kit", "tool_assistant", "An assistant"),
  ], { servers: [] });
  ok(ids(raw.search("<tool_assistant>post</tool_assistant>", 5)).includes("kit/tool_assistant"));
});

Deno.test("lexicalRanker finds a tool through its server's title and description", () => {
  const tools = [tool("zz", "search", "Search places"), tool("web", "search", "Search pages")];
  const servers = [{ server: "zz", title: "OpenStreetMap", description: "Maps and geocoding" }];
  equal(lexicalRanker(tools, { servers }).search("search maps", 2)[0]?.id, "zz/search");
  equal(lexicalRanker(tools, { servers: [] }).search("search maps", 2)[0]?.id, "web/search");
  equal(lexicalRanker(tools, { servers }).search("geocoding", 2)[0]?.id, "zz/search");
  deepEqual(lexicalRanker(tools, { servers: [] }).search("geocoding", 2), []);
});

Deno.test("lexicalRanker ranks a tool whose name holds a query word pair above one with the words apart", () => {
  const tools = [
    tool("a", "write_file", "Write to disk"),
    tool("b", "file_write_lock", "Lock a file"),
  ];
  equal(lexicalRanker(tools, { servers: [] }).search("write file", 2)[0]?.id, "a/write_file");
});

Deno.test("lexicalRanker prefers a tool matching more of the query's words", () => {
  const tools = [
    tool("a", "weather", "Weather forecast for a city"),
    tool("b", "forecast", "Sales forecast forecast forecast"),
  ];
  equal(
    lexicalRanker(tools, { servers: [] }).search("city weather forecast", 2)[0]?.id,
    "a/weather",
  );
});

Deno.test("lexicalRanker matches longer words a query word begins, and words one typo away", () => {
  const tools = [tool("a", "take_screenshot", "Capture the screen"), tool("b", "list", "List")];
  equal(lexicalRanker(tools, { servers: [] }).search("screensh", 2)[0]?.id, "a/take_screenshot");
  equal(lexicalRanker(tools, { servers: [] }).search("screnshot", 2)[0]?.id, "a/take_screenshot");
  deepEqual(
    createLexicalRanker({ fuzzyWeight: 0 })(tools, { servers: [] }).search("screnshot", 2),
    [],
  );
});

Deno.test("lexicalRanker ignores stop-words, and a query of only stop-words finds nothing", () => {
  const tools = [tool("a", "the_tool", "What it is")];
  deepEqual(lexicalRanker(tools, { servers: [] }).search("what is the", 5), []);
  const noStops = createLexicalRanker({ stopWords: new Set() })(tools, { servers: [] });
  equal(noStops.search("what is the", 5)[0]?.id, "a/the_tool");
});

Deno.test("createLexicalRanker() leaves fields with weight 0 out and keeps the other defaults", () => {
  const tools = [tool("a", "x", "", { street: { type: "string" } })];
  equal(lexicalRanker(tools, { servers: [] }).search("street", 1)[0]?.id, "a/x");
  const noParams = createLexicalRanker({ fieldWeights: { params: 0 } });
  deepEqual(noParams(tools, { servers: [] }).search("street", 1), []);
  equal(LEXICAL_DEFAULTS.fieldWeights.name, 3);
});

Deno.test("lexicalRanker orders a long result list like a short one", () => {
  const tools = Array.from(
    { length: 150 },
    (_, i) =>
      tool(
        `s${i % 7}`,
        `tool_${i}`,
        `file ${i % 3 === 0 ? "read" : "write"} ${"x ".repeat(i % 5)}`,
      ),
  );
  const ranker = lexicalRanker(tools, { servers: [] });
  const all = ranker.search("read file", 200);
  equal(all.length, 150);
  deepEqual(ranker.search("read file", 20), all.slice(0, 20));
  for (let i = 1; i < all.length; i++) {
    const [a, b] = [all[i - 1]!, all[i]!];
    ok(a.score > b.score || (a.score === b.score && a.id < b.id), `${a.id} before ${b.id}`);
  }
});

Deno.test("lexicalRanker reaches a tool through the thesaurus and other inflections, below exact matches", () => {
  const tools = [
    tool("gallery", "upload_image", "Store an image"),
    tool("gallery", "upload_picture", "Store a picture"),
    tool("notes", "add_note", "Add a note"),
  ];
  const ranker = createLexicalRanker({ thesaurus: englishLexicon() })(tools, { servers: [] });
  deepEqual(ids(ranker.search("picture", 5)), ["gallery/upload_picture", "gallery/upload_image"]);
  equal(ranker.search("uploading", 1)[0]?.id.startsWith("gallery/upload_"), true);
  const off = createLexicalRanker({ thesaurusWeight: 0 })(tools, { servers: [] });
  deepEqual(ids(off.search("picture", 5)), ["gallery/upload_picture"]);
});

Deno.test("lexicalRanker indexes _meta keywords and annotation titles, so an operator can fix a miss", () => {
  const tools = [
    { ...tool("ops", "kctl_apply", "Apply a manifest"), _meta: { "unfold/keywords": ["deploy"] } },
    { ...tool("ops", "kctl_roll", "Roll"), annotations: { title: "Restart pods" } },
    tool("ops", "other", "Something else"),
  ];
  const ranker = lexicalRanker(tools, { servers: [] });
  equal(ranker.search("deploy", 1)[0]?.id, "ops/kctl_apply");
  equal(ranker.search("restart", 1)[0]?.id, "ops/kctl_roll");
});

Deno.test("lexicalRanker indexes a server's _meta anthropic/searchHint like keywords", () => {
  const tools = [
    {
      ...tool("ops", "kctl_apply", "Apply a manifest"),
      _meta: { "anthropic/searchHint": "deploy" },
    },
    {
      ...tool("ops", "kctl_roll", "Roll"),
      _meta: { "anthropic/searchHint": ["restart pods"], "unfold/keywords": "bounce" },
    },
    { ...tool("ops", "other", "Something else"), _meta: { "anthropic/searchHint": 42 } },
  ];
  const ranker = lexicalRanker(tools, { servers: [] });
  equal(ranker.search("deploy", 1)[0]?.id, "ops/kctl_apply");
  equal(ranker.search("restart", 1)[0]?.id, "ops/kctl_roll");
  equal(ranker.search("bounce", 1)[0]?.id, "ops/kctl_roll");
});

Deno.test("createLexicalRanker({synonyms}) adds a deployment's own jargon", () => {
  const tools = [
    tool("infra", "cluster_status", "Status of the kubernetes cluster"),
    tool("x", "y"),
  ];
  const plain = lexicalRanker(tools, { servers: [] });
  deepEqual(plain.search("orchestrator", 5), []);
  const jargon = createLexicalRanker({ synonyms: [["orchestrator", "kubernetes"]] })(tools, {
    servers: [],
  });
  equal(jargon.search("orchestrator", 1)[0]?.id, "infra/cluster_status");
});

Deno.test("lexicalRanker falls back to the thesaurus's second step instead of a bare miss", () => {
  const lexicon = {
    has: (w: string) => ["car", "vehicle", "truck"].includes(w),
    related: (w: string) =>
      w === "car"
        ? [{ word: "vehicle", weight: 0.4 }]
        : w === "vehicle"
        ? [{ word: "truck", weight: 0.35 }, { word: "car", weight: 0.35 }]
        : [],
  };
  const tools = [tool("fleet", "list_trucks", "List every truck"), tool("x", "y", "Other")];
  const ranker = createLexicalRanker({ thesaurus: lexicon });
  equal(ranker(tools, { servers: [] }).search("car", 1)[0]?.id, "fleet/list_trucks");
  deepEqual(
    createLexicalRanker({ thesaurus: lexicon, fallback: false })(tools, { servers: [] })
      .search("car", 1),
    [],
  );
});

Deno.test("createLexicalRanker({fieldWeights: {related}}) expands the tools' side with the thesaurus", () => {
  const tools = [
    tool("gallery", "upload_image", "Store it"),
    tool("notes", "add_note", "Add a note"),
  ];
  const options = { thesaurus: englishLexicon(), thesaurusWeight: 0 };
  const docSide = createLexicalRanker({ ...options, fieldWeights: { related: 0.5 } });
  deepEqual(ids(docSide(tools, { servers: [] }).search("picture", 5)), ["gallery/upload_image"]);
  deepEqual(createLexicalRanker(options)(tools, { servers: [] }).search("picture", 5), []);
});

// A small catalogue for the semantic match; EVERYDAY shares no word with any of its tools.
const SEMANTIC_TOOLS = [
  tool("img", "resize_image", "Resize an image to the given width"),
  tool("fs", "delete_file", "Delete a file"),
  tool("mail", "send_email", "Send an email message"),
  tool("weather", "get_forecast", "Weather forecast for a city"),
  tool("cal", "create_event", "Create a calendar event"),
  tool("db", "run_query", "Run a SQL query against the database"),
];
const EVERYDAY = "make my photo smaller";

Deno.test("createLexicalRanker({vectors}) finds a tool by meaning when no query word is the catalogue's", () => {
  const catalogueWords = new Set(
    SEMANTIC_TOOLS.flatMap((t) => `${t.name} ${t.description}`.toLowerCase().split(/[^a-z]+/)),
  );
  for (const word of EVERYDAY.split(" ")) ok(!catalogueWords.has(word), word);
  const plain = lexicalRanker(SEMANTIC_TOOLS, { servers: [] }).search(EVERYDAY, 5);
  ok(plain[0]?.id !== "img/resize_image", JSON.stringify(plain));
  const semantic = createLexicalRanker({ vectors: englishVectors() })(SEMANTIC_TOOLS, {
    servers: [],
  }).search(EVERYDAY, 5);
  equal(semantic[0]?.id, "img/resize_image");
  ok(semantic.length <= 5);
  for (let i = 1; i < semantic.length; i++) ok(semantic[i - 1]!.score >= semantic[i]!.score);
});

Deno.test("createLexicalRanker({vectors}) without word weighing or neighbours ranks a query in the catalogue's own words exactly as without", () => {
  const plain = lexicalRanker(SEMANTIC_TOOLS, { servers: [] });
  const semantic = createLexicalRanker({
    vectors: englishVectors(),
    commonWordPower: 0,
    neighbourWeight: 0,
  })(SEMANTIC_TOOLS, { servers: [] });
  for (const query of ["delete file", "send email message", "weather forecast city"]) {
    const expected = plain.search(query, 10);
    ok(expected.length > 0, query);
    deepEqual(semantic.search(query, 10), expected, query);
  }
});

Deno.test("createLexicalRanker({vectors}) restores only a snapshot that holds their semantic match", () => {
  const withVectors = createLexicalRanker({ vectors: englishVectors() });
  const ranker = withVectors(SEMANTIC_TOOLS, { servers: [] });
  const snapshot = ranker.snapshot?.();
  ok(snapshot !== undefined);
  const back = withVectors.restore?.(SEMANTIC_TOOLS, { servers: [] }, snapshot);
  deepEqual(back?.search("remove a picture", 10), ranker.search("remove a picture", 10));
  // Vectors that do not name their data (their id) never take a stored match.
  const { id: _, ...anonymous } = englishVectors();
  equal(
    createLexicalRanker({ vectors: anonymous }).restore?.(
      SEMANTIC_TOOLS,
      { servers: [] },
      snapshot,
    ),
    undefined,
  );
  const without = createLexicalRanker();
  const plainSnapshot = without(SEMANTIC_TOOLS, { servers: [] }).snapshot?.();
  ok(plainSnapshot !== undefined);
  const restored = without.restore?.(SEMANTIC_TOOLS, { servers: [] }, plainSnapshot);
  ok(restored !== undefined);
  deepEqual(
    restored.search("delete file", 10),
    without(SEMANTIC_TOOLS, { servers: [] }).search("delete file", 10),
  );
});

Deno.test("createLexicalRanker({vectors}) with every use of them at 0 ranks exactly as without vectors", () => {
  const plain = lexicalRanker(SEMANTIC_TOOLS, { servers: [] });
  const off = createLexicalRanker({
    vectors: englishVectors(),
    semanticWeight: 0,
    commonWordPower: 0,
    neighbourWeight: 0,
  })(SEMANTIC_TOOLS, { servers: [] });
  for (const query of [EVERYDAY, "delete my photo", "delete file"]) {
    deepEqual(off.search(query, 10), plain.search(query, 10), query);
  }
});

// Two tools alike but for one word each: without vectors they tie, and the tie goes by id.
const ONE_WORD_EACH: McpTool[] = [
  { server: "a", name: "show", description: "Show", inputSchema: { type: "object" } },
  { server: "b", name: "forecast", description: "Forecast", inputSchema: { type: "object" } },
];

Deno.test("createLexicalRanker({vectors}) counts a frequent English query word for less", () => {
  const query = "show forecast";
  const plain = lexicalRanker(ONE_WORD_EACH, { servers: [] }).search(query, 2);
  equal(plain[0]!.score, plain[1]!.score);
  equal(plain[0]!.id, "a/show");
  const weighed = createLexicalRanker({ vectors: englishVectors(), semanticWeight: 0 })(
    ONE_WORD_EACH,
    { servers: [] },
  ).search(query, 2);
  deepEqual(weighed.map((hit) => hit.id), ["b/forecast", "a/show"]);
  const off = createLexicalRanker({
    vectors: englishVectors(),
    semanticWeight: 0,
    commonWordPower: 0,
  })(ONE_WORD_EACH, { servers: [] }).search(query, 2);
  deepEqual(off, plain);
});

// Both tools crop; only one has a word near "photo" in meaning.
const CROPPERS: McpTool[] = [
  {
    server: "a",
    name: "crop_text",
    description: "Crop a text",
    inputSchema: { type: "object" },
  },
  {
    server: "z",
    name: "crop_picture",
    description: "Crop a picture",
    inputSchema: { type: "object" },
  },
];

Deno.test("createLexicalRanker({vectors}) reaches a catalogue word near a query word in meaning", () => {
  const query = "crop photo";
  const options = { vectors: englishVectors(), semanticWeight: 0 };
  const without = createLexicalRanker({ ...options, neighbourWeight: 0 })(CROPPERS, { servers: [] })
    .search(query, 2);
  equal(without[0]?.id, "a/crop_text");
  const near = createLexicalRanker(options)(CROPPERS, { servers: [] }).search(query, 2);
  equal(near[0]?.id, "z/crop_picture");
  // Below a match on the word itself: "crop picture" scores higher than "crop photo".
  const exact = createLexicalRanker(options)(CROPPERS, { servers: [] }).search("crop picture", 1);
  ok(exact[0]!.score > near[0]!.score);
});

Deno.test("a long description that matches a little of everything does not outrank a focused tool (textPivot)", () => {
  const filler = [
    "Read a file from disk.",
    "Send a chat message to a channel.",
    "List the open issues of a repository.",
    "Create a calendar event.",
    "Search the web for pages.",
    "Translate text to another language.",
    "Get the weather forecast for a city.",
    "Query a database table with SQL.",
    "Upload a document to storage.",
    "Convert an amount between currencies.",
  ].map((description, i) => tool(`s${i}`, `tool_${i}`, description));
  const steps = Array.from(
    { length: 60 },
    (_, i) => `Step ${i}: think about case ${i}, revise the plan, branch when needed.`,
  );
  const tools = [
    ...filler,
    tool("img", "shrink", "Make a picture smaller: a new width and height."),
    tool(
      "think",
      "reflect",
      "A tool for thinking through any problem, large or small: a trip to Rome with friends, " +
        `colours, a blog post, a picture, a width or a height, anything else. ${steps.join(" ")}`,
    ),
  ];
  const long =
    "I have a large picture from my trip to Rome with friends; please make it smaller, " +
    "a new width and height, keeping its colours, for my blog post";
  const without = createLexicalRanker({ textPivot: 0 })(tools, { servers: [] });
  equal(without.search(long, 2)[0]?.id, "think/reflect");
  const ranker = createLexicalRanker()(tools, { servers: [] });
  equal(ranker.search(long, 2)[0]?.id, "img/shrink");
  // A short request: the focused tool first either way, the long one's score lower.
  const score = (r: typeof ranker, id: string) =>
    r.search("make this picture smaller", 5).find((hit) => hit.id === id)!.score;
  equal(ranker.search("make this picture smaller", 1)[0]?.id, "img/shrink");
  ok(score(ranker, "think/reflect") < score(without, "think/reflect"));
  equal(score(ranker, "img/shrink"), score(without, "img/shrink"));
});
