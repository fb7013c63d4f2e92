/**
 * Graded disclosure: the catalogue listed at four levels of detail (manifest, brief, names,
 * inventory), and the choice of the richest level that fits a token budget. Levels are rendered
 * lazily, richest first, and a level stops rendering as soon as it cannot fit; no listing exceeds
 * {@linkcode MAX_LISTING_BYTES}, whatever the budget.
 *
 * @module
 */

import type { McpCatalog } from "./catalog.ts";
import { DISCLOSURE_LEVELS, type DisclosureLevel } from "./config.ts";
import { estimateTokens } from "./tokens.ts";
import type { McpTool, ServerInfo } from "./tool.ts";
import { toolId } from "./tool.ts";
import { TextSize } from "./utils/text_size.ts";
import {
  firstSentence,
  isPlainId,
  oneLine,
  quoteClean,
  quotedLineLength,
  quoteId,
} from "./untrusted.ts";

/** The structured form of what a listing shows. */
export interface Inventory {
  /** The disclosure level. */
  level: DisclosureLevel;
  /** The number of tools in the catalogue. */
  toolCount: number;
  /**
   * The servers, sorted by name: each with its tool count, its one-line `summary` from server
   * information (`names` and `inventory` levels) and its `tools` sorted by name (every level but
   * `inventory`), each with the `description` as shown (cleaned, capped; absent at `names`). An
   * inventory cut at {@linkcode MAX_LISTING_BYTES} holds the servers it lists.
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
/**
 * The most UTF-8 bytes of a listing's text, whatever the budget: a richer level that would be
 * larger does not fit, and the inventory (the fallback) lists servers up to it, then says how many
 * more there are. An inject response therefore stays within a few MiB however large the catalogue
 * and the budget.
 */
export const MAX_LISTING_BYTES = 1024 * 1024;
const SUMMARY_CHARS = 120;
const FOOTER = "</tool-catalogue>";
// Room kept for the line that ends a cut inventory.
const CUT_LINE_BYTES = 100;

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
  const bytes = level === "inventory" ? MAX_LISTING_BYTES : Infinity;
  return listingOf(render(catalog, level, options, { points: Infinity, bytes }, false));
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
 * Chooses the richest allowed level whose listing fits the budget (and
 * {@linkcode MAX_LISTING_BYTES}); the inventory is the fallback whether allowed or not. With the
 * default token estimate, a level stops rendering at the first line past the budget.
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
  // The default estimate is ceil(code points / 4): a listing fits when its code points do.
  const counted = options.estimateTokens === estimateTokens;
  const budgetPoints = counted ? 4 * Math.floor(budgetTokens) : Infinity;
  const allowed = (level: DisclosureLevel) => options.disclosure.includes(level);
  const tokensOf = (rendered: Rendered) =>
    counted
      ? Math.ceil(rendered.size.codePoints / 4)
      : options.estimateTokens(listingOf(rendered).text);
  // The manifest is always measured in full (manifestTokens); it is kept only while it may fit.
  const manifest = render(catalog, "manifest", options, {
    points: allowed("manifest") ? budgetPoints : -1,
    bytes: counted ? MAX_LISTING_BYTES : Infinity,
  }, true);
  const manifestTokens = tokensOf(manifest);
  for (const level of DISCLOSURE_LEVELS) {
    if (level !== "inventory" && !allowed(level)) continue;
    const rendered = level === "manifest" ? manifest : render(catalog, level, options, {
      points: level === "inventory" ? Infinity : budgetPoints,
      bytes: MAX_LISTING_BYTES,
    }, false);
    if (!rendered.complete) continue;
    const promptTokens = level === "manifest" ? manifestTokens : tokensOf(rendered);
    const fits = promptTokens <= budgetTokens && rendered.size.bytes <= MAX_LISTING_BYTES;
    if (fits || level === "inventory") {
      return { ...listingOf(rendered), mode: level, manifestTokens, promptTokens };
    }
  }
  throw new Error("unreachable: the inventory level always applies");
}

// A level rendered up to its limits: complete when every line was kept within them.
interface Rendered {
  level: DisclosureLevel;
  toolCount: number;
  header: string;
  lines: string[];
  servers: InventoryServer[];
  size: TextSize;
  complete: boolean;
}

// Renders a level line by line and stops at the first line past the limits (code points and
// bytes of the whole text); `countAll` measures every line even then, keeping none past them. The
// inventory never fails its limits: it ends with a line that counts the servers left out.
function render(
  catalog: McpCatalog,
  level: DisclosureLevel,
  options: ListingOptions,
  limit: { points: number; bytes: number },
  countAll: boolean,
): Rendered {
  const groups = groupsOf(catalog);
  const header =
    `<tool-catalogue level="${level}" servers="${groups.length}" tools="${catalog.size}">`;
  const out: Rendered = {
    level,
    toolCount: catalog.size,
    header,
    lines: [],
    servers: [],
    size: new TextSize(),
    complete: true,
  };
  const size = out.size;
  size.add(header);
  size.add(FOOTER);
  size.add("\n");
  const over = () => size.codePoints > limit.points || size.bytes > limit.bytes;
  // Adds a line (in parts: a line past the limits is measured, never joined); false once the
  // listing is past its limits.
  const add = (line: string, rest?: string): boolean => {
    size.add(line);
    if (rest !== undefined) {
      size.add(": ");
      size.add(rest);
    }
    size.newline();
    if (!out.complete) return false;
    if (over()) {
      out.complete = false;
      out.lines = [];
      out.servers = [];
      return false;
    }
    out.lines.push(rest === undefined ? line : `${line}: ${rest}`);
    return true;
  };
  if (level === "manifest" || level === "brief") {
    const describe = level === "manifest"
      ? (tool: McpTool) => oneLine(tool.description, options.maxDescriptionChars)
      : (tool: McpTool) => firstSentence(tool.description, BRIEF_CHARS);
    for (const group of groups) {
      const { server, tools } = group;
      const plain = isPlainId(server);
      const shown: InventoryTool[] = [];
      for (let i = 0; i < tools.length; i++) {
        const tool = tools[i]!;
        // Past the limits, the manifest is only measured: an ASCII description is counted where
        // it stands, without building its line.
        const counted = out.complete || level !== "manifest"
          ? undefined
          : quotedLineLength(tool.description, options.maxDescriptionChars);
        if (counted !== undefined) {
          // The id as quoteId shows it: as it is when both names are plain.
          if (plain && isPlainId(tool.name)) size.addAscii(server.length + 1 + tool.name.length);
          else size.add(quoteId(toolId(tool)));
          if (counted > 2) size.addAscii(2 + counted); // ": " and the quoted description
          size.newline();
          continue;
        }
        const description = describe(tool);
        const rest = description === "" ? undefined : quoteClean(description);
        if (!add(quoteId(toolId(tool)), rest) && !countAll) {
          return out;
        }
        if (out.complete) shown.push({ name: tool.name, description });
      }
      if (out.complete) out.servers.push({ server, toolCount: tools.length, tools: shown });
    }
    return out;
  }
  for (const group of groups) {
    const { server, tools } = group;
    const summary = group.summary ??= serverSummary(group.info);
    const about = summary === "" ? "" : `, ${quoteClean(summary)}`;
    const entry: InventoryServer = { server, toolCount: tools.length };
    if (summary !== "") entry.summary = summary;
    let line: string;
    if (level === "names") {
      entry.tools = tools.map((tool) => ({ name: tool.name }));
      line = `${quoteId(server)} (${plural(tools.length)}${about}): ${
        tools.map((t) => quoteId(t.name)).join(", ")
      }`;
    } else {
      line = `${quoteId(server)}: ${plural(tools.length)}${about}`;
      if (limit.bytes !== Infinity && size.bytes + lineBytes(line) + CUT_LINE_BYTES > limit.bytes) {
        cutInventory(out, catalog);
        return out;
      }
    }
    if (!add(line)) return out;
    out.servers.push(entry);
  }
  return out;
}

// Ends an inventory that reached the byte limit with a line that says what it left out.
function cutInventory(out: Rendered, catalog: McpCatalog): void {
  const servers = groupsOf(catalog).length - out.servers.length;
  let tools = catalog.size;
  for (const entry of out.servers) tools -= entry.toolCount;
  const line = `(${servers} more servers with ${plural(tools)}: search to find them)`;
  out.size.add(line);
  out.size.add("\n");
  out.lines.push(line);
}

function lineBytes(line: string): number {
  const size = new TextSize();
  size.add(line);
  return size.bytes + 1;
}

function listingOf(rendered: Rendered): Listing {
  return {
    inventory: {
      level: rendered.level,
      toolCount: rendered.toolCount,
      servers: rendered.servers,
    },
    text: `${rendered.header}\n${
      rendered.lines.length === 0 ? "" : `${rendered.lines.join("\n")}\n`
    }${FOOTER}`,
  };
}

// A catalogue's servers with their tools. Tools are sorted by id and a server name holds no "/",
// so each server's tools are adjacent.
interface Group {
  server: string;
  tools: readonly McpTool[];
  info: ServerInfo | undefined;
  // The server's one-line summary, once a listing needed it.
  summary?: string;
}

const GROUPS = new WeakMap<McpCatalog, Group[]>();

function groupsOf(catalog: McpCatalog): Group[] {
  let groups = GROUPS.get(catalog);
  if (groups !== undefined) return groups;
  const info = new Map(catalog.servers.map((s) => [s.server, s]));
  groups = [];
  const tools = catalog.tools;
  for (let start = 0; start < tools.length;) {
    const server = tools[start]!.server;
    let end = start + 1;
    while (end < tools.length && tools[end]!.server === server) end++;
    groups.push({ server, tools: tools.slice(start, end), info: info.get(server) });
    start = end;
  }
  GROUPS.set(catalog, groups);
  return groups;
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
