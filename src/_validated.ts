/**
 * Tool lists that an earlier {@linkcode McpCatalog} validated and that were stored exactly as it
 * kept them (the Worker's catalogue store): a catalogue built from one skips validating each tool
 * again (its input schemas are still compiled when first used). Only the catalogue cache adds to
 * it, for catalogues it reads back from its own store; it is not exported from any entry point.
 *
 * @module
 */

/**
 * The validated tool lists.
 *
 * @example Usage
 * ```ts
 * import { VALIDATED } from "./_validated.ts";
 * import { equal } from "node:assert/strict";
 *
 * const tools = [{ server: "s", name: "t", description: "", inputSchema: { type: "object" } }];
 * VALIDATED.add(tools);
 * equal(VALIDATED.has(tools), true);
 * ```
 */
export const VALIDATED: WeakSet<readonly object[]> = new WeakSet();
