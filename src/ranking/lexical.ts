/**
 * The lexical ranker's knobs (`@unfold/unfold/lexical`): the core's default ranker,
 * `lexicalRanker` at the root, is `createLexicalRanker()` with the defaults; a host that tunes
 * it (field weights, BM25+ constants, a thesaurus from `./lexicon`, word vectors from
 * `./vectors`) builds its own here. The options live off the root because there are some 45 of
 * them and most hosts never touch one.
 *
 * Why these names: `createLexicalRanker` is the one builder, `LexicalRankerOptions` its
 * documented options (each with its `@default`), `LexicalField` the fields the options weigh.
 *
 * ```ts
 * import { createLexicalRanker } from "./lexical.ts";
 * import { McpCatalog } from "../../mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ranker = createLexicalRanker({ fieldWeights: { description: 2 } });
 * const catalog = new McpCatalog([
 *   { server: "slack", name: "post_message", description: "Send a message", inputSchema: { type: "object" } },
 * ], { ranker });
 * equal(catalog.search("send message")[0]?.id, "slack/post_message");
 * ```
 *
 * @module
 */

export {
  createLexicalRanker,
  type LexicalField,
  type LexicalRankerOptions,
} from "./lexical_ranker.ts";
