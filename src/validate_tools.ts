/**
 * Validating a list of tools one by one, as values: a host that gathers tools from many servers
 * (the gateway) keeps every valid tool and sets aside each invalid one with its reason, instead of
 * failing the whole catalogue for one bad entry.
 *
 * @module
 */

import { InvalidCatalogError, McpCatalog } from "./catalog.ts";
import { type McpTool, toolId } from "./tool.ts";

/** A tool left out of a catalogue: where it was, its id when it has one, and why. */
export interface RefusedTool {
  /** Its index in the list given. */
  index: number;
  /** Its id, `server/name`, when it has a usable one. */
  id: string | undefined;
  /** Why, in words (the error's message). */
  reason: string;
  /** The error a catalogue of it would throw, with its index in the list given. */
  error: InvalidCatalogError;
}

/** The tools a catalogue can hold, and the ones it cannot. */
export interface ToolValidation {
  /** The valid tools, in the order given (pass them to `new McpCatalog`). */
  accepted: McpTool[];
  /** The invalid tools, in the order given. */
  refused: RefusedTool[];
}

/**
 * Checks each tool against every catalogue rule on its own: its fields, its input schema (a
 * schema that is not valid JSON Schema is refused; one that is only hard to check is accepted, and
 * `McpCatalog.warnings` says what is left to the server), and its id against the tools before it
 * (a repeated id is refused, the first kept). Linear in the tools' size.
 *
 * @param tools The tools, in any order; anything else in the list is refused.
 * @returns The accepted tools and the refused ones with their reasons.
 *
 * @example Usage
 * ```ts
 * import { validateTools } from "./validate_tools.ts";
 * import { McpCatalog } from "./catalog.ts";
 * import { equal, match } from "node:assert/strict";
 *
 * const { accepted, refused } = validateTools([
 *   { server: "s", name: "ok", description: "", inputSchema: { type: "object" } },
 *   { server: "s", name: "bad", description: "", inputSchema: { type: "object", properties: { q: { type: 42 } } } },
 * ]);
 * equal(new McpCatalog(accepted).size, 1);
 * equal(refused[0]?.id, "s/bad");
 * match(refused[0]!.reason, /"type" at \/properties\/q\/type/);
 * ```
 */
export function validateTools(tools: readonly unknown[]): ToolValidation {
  if (!Array.isArray(tools)) {
    throw new TypeError("Cannot validate tools: tools must be an array");
  }
  const accepted: McpTool[] = [];
  const refused: RefusedTool[] = [];
  const ids = new Set<string>();
  tools.forEach((tool: McpTool, index) => {
    const alone = McpCatalog.create([tool]);
    let error = alone.ok ? undefined : at(alone.error, index);
    if (error === undefined) {
      const id = toolId(tool);
      if (!ids.has(id)) {
        ids.add(id);
        accepted.push(tool);
        return;
      }
      error = new InvalidCatalogError(
        { list: "catalog", index },
        id,
        "name",
        "repeats an id already in the catalogue",
      );
    }
    refused.push({ index, id: error.id, reason: error.message, error });
  });
  return { accepted, refused };
}

// The error of a one-tool catalogue, placed at the tool's index in the list.
function at(error: InvalidCatalogError, index: number): InvalidCatalogError {
  const prefix = `/catalog/0${error.field === "(entry)" ? "" : `/${error.field}`}`;
  const inside = error.pointer.slice(prefix.length);
  return new InvalidCatalogError(
    { list: "catalog", index },
    error.id,
    error.field,
    error.rule,
    error.keyword === undefined ? { pointer: inside } : { pointer: inside, keyword: error.keyword },
  );
}
