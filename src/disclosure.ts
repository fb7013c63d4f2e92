/**
 * Graded disclosure: the catalogue listed at four levels of detail (manifest, brief, names,
 * inventory), and the choice of the richest level that fits a token budget.
 *
 * @module
 */

import type { McpCatalog } from "./catalog.ts";
import { DISCLOSURE_LEVELS, type DisclosureLevel } from "./config.ts";
import type { McpTool, ServerInfo } from "./tool.ts";
import { toolId } from "./tool.ts";
import { firstSentence, oneLine, quote, quoteId } from "./untrusted.ts";

/** The structured form of what a listing shows. */
export interface Inventory {
  /** The disclosure level. */
  level: DisclosureLevel;
  /** The number of tools in the catalogue. */
  toolCount: number;
  /**
   * The servers, sorted by name: each with its tool count, its one-line `summary` from server
   * information (`names` and `inventory` levels) and its `tools` sorted by name (every level but
   * `inventory`), each with the `description` as shown (cleaned, capped; absent at `names`).
   */
  servers: {
    server: string;
    toolCount: number;
    summary?: string;
    tools?: { name: string; description?: string }[];
  }[];
}

/** One server as a listing shows it. */
export type InventoryServer = Inventory["servers"][number];

/** One tool as a listing shows it. */
export type InventoryTool = NonNullable<InventoryServer["tools"]>[number];

/** A catalogue listing at one level: its structure and its text for the prompt. */
export interface Listing {
  /** What the listing shows. */
  inventory: Inventory;
  /** The data block, delimited, one line per tool (or per server). */
  text: string;
}

/** How listings render descriptions. */
export interface ListingOptions {
  /** The most code points of one description. */
  maxDescriptionChars: number;
}

/** The most code points of a brief description (the `brief` level). */
export const BRIEF_CHARS = 100;
const SUMMARY_CHARS = 120;

/**
 * Lists a catalogue at one level of detail.
 *
 * @param catalog The catalogue.
 * @param level The level.
 * @param options How to render descriptions.
 * @returns The listing.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "./catalog.ts";
 * import { listCatalog } from "./disclosure.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "github", name: "create_issue", description: "Create an issue. Needs a token.", inputSchema: { type: "object" } },
 * ]);
 * const { text } = listCatalog(catalog, "brief", { maxDescriptionChars: 4000 });
 * equal(text.split("\n")[1], 'github/create_issue: "Create an issue."');
 * ```
 */
export function listCatalog(
  catalog: McpCatalog,
  level: DisclosureLevel,
  options: ListingOptions,
): Listing {
  const info = new Map(catalog.servers.map((s) => [s.server, s]));
  const groups = new Map<string, McpTool[]>();
  for (const tool of catalog.tools) {
    const group = groups.get(tool.server);
    if (group) group.push(tool);
    else groups.set(tool.server, [tool]);
  }
  const describeTool = level === "manifest"
    ? (tool: McpTool) => oneLine(tool.description, options.maxDescriptionChars)
    : (tool: McpTool) => firstSentence(tool.description, BRIEF_CHARS);
  const servers: InventoryServer[] = [];
  const lines: string[] = [];
  for (const [server, tools] of groups) {
    const entry: InventoryServer = { server, toolCount: tools.length };
    const summary = level === "names" || level === "inventory"
      ? serverSummary(info.get(server))
      : "";
    if (summary !== "") entry.summary = summary;
    if (level === "manifest" || level === "brief") {
      entry.tools = tools.map((tool) => {
        const description = describeTool(tool);
        lines.push(
          description === ""
            ? quoteId(toolId(tool))
            : `${quoteId(toolId(tool))}: ${quote(description)}`,
        );
        return { name: tool.name, description };
      });
    } else if (level === "names") {
      entry.tools = tools.map((tool) => ({ name: tool.name }));
      const about = summary === "" ? "" : `, ${quote(summary)}`;
      lines.push(
        `${quoteId(server)} (${plural(tools.length)}${about}): ${
          tools.map((t) => quoteId(t.name)).join(", ")
        }`,
      );
    } else {
      lines.push(
        `${quoteId(server)}: ${plural(tools.length)}${summary === "" ? "" : `, ${quote(summary)}`}`,
      );
    }
    servers.push(entry);
  }
  const header =
    `<tool-catalogue level="${level}" servers="${groups.size}" tools="${catalog.size}">`;
  return {
    inventory: { level, toolCount: catalog.size, servers },
    text: [header, ...lines, "</tool-catalogue>"].join("\n"),
  };
}

/** The listing chosen for a budget, with the estimates that chose it. */
export interface Disclosure extends Listing {
  /** The level chosen. */
  mode: DisclosureLevel;
  /** The estimated tokens of the full manifest listing. */
  manifestTokens: number;
  /** The estimated tokens of the chosen listing. */
  promptTokens: number;
}

/**
 * Chooses the richest allowed level whose listing fits the budget; the inventory is the fallback
 * whether allowed or not.
 *
 * @param catalog The catalogue.
 * @param budgetTokens The most tokens the listing may cost.
 * @param options Allowed levels, token estimate, description cap.
 * @returns The chosen listing and its estimates.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "./catalog.ts";
 * import { disclose } from "./disclosure.ts";
 * import { estimateTokens } from "./tokens.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "github", name: "create_issue", description: "Create an issue", inputSchema: { type: "object" } },
 * ]);
 * const options = { disclosure: ["manifest", "brief", "names", "inventory"] as const, estimateTokens, maxDescriptionChars: 4000 };
 * equal(disclose(catalog, 1000, options).mode, "manifest");
 * equal(disclose(catalog, 1, options).mode, "inventory");
 * ```
 */
export function disclose(
  catalog: McpCatalog,
  budgetTokens: number,
  options: ListingOptions & {
    disclosure: readonly DisclosureLevel[];
    estimateTokens: (text: string) => number;
  },
): Disclosure {
  const manifest = listCatalog(catalog, "manifest", options);
  const manifestTokens = options.estimateTokens(manifest.text);
  for (const level of DISCLOSURE_LEVELS) {
    if (level !== "inventory" && !options.disclosure.includes(level)) continue;
    const listing = level === "manifest" ? manifest : listCatalog(catalog, level, options);
    const promptTokens = level === "manifest"
      ? manifestTokens
      : options.estimateTokens(listing.text);
    if (promptTokens <= budgetTokens || level === "inventory") {
      return { ...listing, mode: level, manifestTokens, promptTokens };
    }
  }
  throw new Error("unreachable: the inventory level always applies");
}

function serverSummary(info: ServerInfo | undefined): string {
  if (info === undefined) return "";
  const title = oneLine(info.title ?? "", SUMMARY_CHARS);
  const sentence = firstSentence(info.description ?? "", SUMMARY_CHARS);
  if (sentence === "") return title;
  if (title === "" || sentence.toLowerCase().includes(title.toLowerCase())) return sentence;
  return oneLine(`${title}: ${sentence}`, SUMMARY_CHARS);
}

function plural(count: number): string {
  return count === 1 ? "1 tool" : `${count} tools`;
}
