/**
 * What stands in, in the gateway Worker, for the ranker's snapshot modules
 * (`src/ranking/lexical_snapshot.ts`, `name_snapshot.ts`, `semantic_snapshot.ts` and
 * `ranker_snapshot.ts`; aliases in `wrangler.gateway.toml`). A ranker's index is written as bytes
 * and read back only by the API Worker's catalogue cache (`src/http/catalog_cache.ts`, which its
 * `CatalogObject`s store): the gateway Worker binds no catalogue object and bundles no catalogue
 * cache, so it builds each index in its isolate and never snapshots or restores one. The ranker
 * classes still name these functions (their `snapshot` methods, their factories' `restore`), so
 * they are bundled unless they stand in.
 *
 * Every stand-in throws, saying why, if it is ever reached; nothing is an instance of the stored
 * index classes, as no index in the Worker was restored.
 *
 * @module
 */

// Thrown by every stand-in: what happened, and why it is not in the Worker.
function unavailable(name: string): never {
  throw new Error(
    `The ranker's snapshot code (${name}) is not in the gateway Worker: it never stores or ` +
      "restores an index (the API Worker's catalogue objects do)",
  );
}

/** A function of the snapshot modules, standing in: it throws. */
export type StandIn = (...args: unknown[]) => never;

const stand_in = (name: string): StandIn => () => unavailable(name);

/** Writes the lexical index (`lexical_snapshot.ts`): throws. */
export const encodeLexicalParts: StandIn = stand_in("encodeLexicalParts");
/** Reads the lexical index (`lexical_snapshot.ts`): throws. */
export const decodeLexicalParts: StandIn = stand_in("decodeLexicalParts");
/** Writes the names' index (`name_snapshot.ts`): throws. */
export const encodeNames: StandIn = stand_in("encodeNames");
/** Reads the names' index (`name_snapshot.ts`): throws. */
export const decodeNames: StandIn = stand_in("decodeNames");
/** Writes the semantic match (`semantic_snapshot.ts`): throws. */
export const encodeSemantic: StandIn = stand_in("encodeSemantic");
/** Reads the semantic match (`semantic_snapshot.ts`): throws. */
export const decodeSemantic: StandIn = stand_in("decodeSemantic");
/** Joins a snapshot's parts (`ranker_snapshot.ts`): throws. */
export const joinParts: StandIn = stand_in("joinParts");
/** Splits a snapshot's parts (`ranker_snapshot.ts`): throws. */
export const splitParts: StandIn = stand_in("splitParts");

/**
 * A restored index's postings, standing in: nothing is an instance of it (the lexical ranker asks,
 * and every index of the Worker was built); making one throws.
 */
export class StoredPostings {
  /** Throws: the gateway Worker restores no index. */
  constructor() {
    unavailable("StoredPostings");
  }
}
