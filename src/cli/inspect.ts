/**
 * `unfold inspect`: what the upstreams cost a host as plain definitions, and what the gateway
 * costs instead at common context sizes. Pure: it reads a catalogue and the upstreams' states.
 *
 * @module
 */

import { servedCodeMode } from "../gateway/code_mode_served.ts";
import type { McpCatalog } from "../catalog.ts";
import type { DisclosureLevel } from "../config.ts";
import type { GatewayOptions } from "../gateway/config/parse.ts";
import { definitionOf, present } from "../gateway/presentation.ts";
import type { UpstreamStatus } from "../gateway/pool/upstreams.ts";
import { type FieldChange, fieldChanges, type Unapproved } from "../gateway/trust/lock.ts";
import { estimateTokens } from "../tokens.ts";
import { commandSpan } from "./hints.ts";

/** The context sizes `inspect` reports on. */
export const INSPECT_BUDGETS: readonly number[] = [8_000, 32_000, 128_000, 200_000, 1_000_000];

/** One upstream in the report. */
export interface InspectedServer extends UpstreamStatus {
  /** Estimated tokens of its tools' full `tools/list` definitions. */
  definitionTokens: number;
}

/** What the gateway costs at one context size. */
export interface InspectedBudget {
  /** The context the model has available, in tokens. */
  availableContextTokens: number;
  /** The disclosure level chosen. */
  level: DisclosureLevel | null;
  /** Estimated tokens of `tools/list` (the bridge, whose description carries the overview, and pinned tools). */
  toolTokens: number;
  /** Estimated tokens of the server instructions (the overview, where `overviewIn` puts it). */
  instructionTokens: number;
  /** Their sum: what the host is sent. */
  costTokens: number;
  /** Whether this is the config's own `availableContextTokens` (what the gateway really sends). */
  configured?: true;
  /** Every definition's tokens minus the cost. */
  savingTokens: number;
  /** The most tokens one answer carries at this size (`maxResultTokens`); `0`: no ceiling. */
  resultCeilingTokens: number;
}

/** The whole report. */
export interface InspectReport {
  /** Each upstream. */
  servers: InspectedServer[];
  /** Tools of every upstream. */
  tools: number;
  /** Estimated tokens of every tool's full definition. */
  definitionTokens: number;
  /** The gateway's cost at each of {@linkcode INSPECT_BUDGETS}. */
  budgets: InspectedBudget[];
}

/**
 * Computes the report.
 *
 * @param catalog Every upstream tool.
 * @param statuses The upstreams' states.
 * @param options The `unfold` block (its budget is replaced by each reported size).
 * @param upstreamInstructions Each upstream's own instructions, by server, as the gateway shows them.
 * @returns The report.
 *
 * @example Usage
 * ```ts
 * import { inspectCatalog } from "./inspect.ts";
 * import { McpCatalog } from "../catalog.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([{ server: "a", name: "b", description: "Does B", inputSchema: { type: "object" } }]);
 * const report = inspectCatalog(catalog, [{ server: "a", state: "ready", tools: 1 }], { pinned: [] });
 * equal(report.tools, 1);
 * equal(report.budgets[0]?.level, "manifest");
 * ```
 */
export function inspectCatalog(
  catalog: McpCatalog,
  statuses: readonly UpstreamStatus[],
  options: GatewayOptions,
  upstreamInstructions: ReadonlyMap<string, string> = new Map(),
): InspectReport {
  const tokensOf = (server: string) =>
    catalog.tools.filter((tool) => tool.server === server)
      .reduce((sum, tool) => sum + estimateTokens(JSON.stringify(definitionOf(tool))), 0);
  const servers = statuses.map((status) => ({
    ...status,
    definitionTokens: tokensOf(status.server),
  }));
  const definitionTokens = servers.reduce((sum, server) => sum + server.definitionTokens, 0);
  // The config's own context size is the one that matters: it gets a row, marked.
  const own = options.availableContextTokens;
  const sizes = own === undefined || INSPECT_BUDGETS.includes(own)
    ? INSPECT_BUDGETS
    : [...INSPECT_BUDGETS, own].sort((a, b) => a - b);
  const budgets = sizes.map((availableContextTokens): InspectedBudget => {
    const shown = present(
      catalog,
      // What the `unfold` command serves: it always has a sandbox, so code mode as configured.
      { ...servedCodeMode(options, true), availableContextTokens },
      statuses,
      upstreamInstructions,
    );
    const costTokens = shown.toolTokens + shown.instructionTokens;
    return {
      availableContextTokens,
      level: shown.injection?.mode ?? null,
      toolTokens: shown.toolTokens,
      instructionTokens: shown.instructionTokens,
      costTokens,
      savingTokens: definitionTokens - costTokens,
      resultCeilingTokens: shown.injector.config.maxResultTokens,
      ...(availableContextTokens === own ? { configured: true as const } : {}),
    };
  });
  return { servers, tools: catalog.size, definitionTokens, budgets };
}

/**
 * The report as text tables.
 *
 * @param report The report.
 * @param approve The command that approves, without the ids (`unfold approve --config …`).
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { formatReport, inspectCatalog } from "./inspect.ts";
 * import { McpCatalog } from "../catalog.ts";
 * import { match } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([{ server: "a", name: "b", description: "Does B", inputSchema: { type: "object" } }]);
 * match(formatReport(inspectCatalog(catalog, [{ server: "a", state: "ready", tools: 1 }], { pinned: [] })), /^server/);
 * ```
 */
export function formatReport(report: InspectReport, approve = "unfold approve"): string {
  const n = (value: number) => value.toLocaleString("en-US");
  const servers = report.servers.map((s) => [
    s.server,
    s.state === "ready"
      ? "ready"
      : s.state === "stopped"
      ? "stopped until called"
      : s.state === "unavailable"
      ? "unavailable (below)"
      : `${s.state}: ${(s.detail ?? "").slice(0, 60)}`,
    n(s.tools),
    n(s.definitionTokens),
  ]);
  servers.push(["all", "", n(report.tools), n(report.definitionTokens)]);
  const budgets = report.budgets.map((b) => [
    b.configured ? `${n(b.availableContextTokens)} (config)` : n(b.availableContextTokens),
    b.level ?? "-",
    n(b.toolTokens),
    n(b.instructionTokens),
    n(b.costTokens),
    `${n(b.savingTokens)} (${
      report.definitionTokens === 0 ? 0 : Math.round(b.savingTokens / report.definitionTokens * 100)
    } %)`,
    b.resultCeilingTokens === 0 ? "none" : n(b.resultCeilingTokens),
  ]);
  // unfold's own words, whole: what the user must do before such a server can start.
  const unavailable = report.servers.filter((s) => s.state === "unavailable").map((s) =>
    `  ${s.server}: ${s.detail ?? ""}`
  );
  const quarantined = report.servers.flatMap((s) =>
    (s.quarantined ?? []).map((tool) => `  ${s.server}/${tool.name}: ${tool.reason}`)
  );
  const unapproved = report.servers.flatMap((s) =>
    (s.unapproved ?? []).flatMap((tool) => [
      `  ${s.server}/${tool.name}: ${
        tool.change === "new" ? "new" : `changed (${tool.fields.join(", ")})`
      }${tool.held ? ", held until approved" : ""}`,
      ...changeLines(tool.changes ?? [], "    "),
    ])
  );
  const pins = report.servers.flatMap((s) =>
    (s.missingPins ?? []).map((pin) =>
      `  ${pin.id}: not in ${pin.listing === "live" ? "its listing" : "its snapshot"}${
        pin.closest === undefined ? "" : ` (closest: ${pin.closest})`
      }`
    )
  );
  return [
    table(["server", "state", "tools", "definition tokens"], servers),
    "",
    table(
      [
        "context",
        "level",
        "tools/list tokens",
        "instruction tokens",
        "gateway cost",
        "saving",
        "result ceiling",
      ],
      budgets,
    ),
    ...(unavailable.length === 0
      ? []
      : ["", "servers that cannot start as configured (not retried):", ...unavailable]),
    ...(quarantined.length === 0
      ? []
      : ["", "quarantined tools (left out of the catalogue):", ...quarantined]),
    ...(unapproved.length === 0 ? [] : [
      "",
      `tool definitions not approved (review them, then run ${commandSpan(`${approve} --all`)}, ` +
      "or give the ids to approve in place of --all):",
      ...unapproved,
    ]),
    ...(pins.length === 0
      ? []
      : ["", "pinned tools not listed (left out of tools/list):", ...pins]),
  ].join("\n");
}

/**
 * Puts the whole approved and live value of each changed field on the report's tools not
 * approved (the statuses carry the first few, cut), for review.
 *
 * @param report The report.
 * @param unapproved The tools not approved, as the gateway found them.
 * @returns The report, changed in place.
 *
 * @example Usage
 * ```ts
 * import { inspectCatalog, withChanges } from "./inspect.ts";
 * import { McpCatalog } from "../catalog.ts";
 * import { equal } from "node:assert/strict";
 *
 * const live = { server: "a", name: "b", description: "Does B", inputSchema: { type: "object" } };
 * const statuses = [{ server: "a", state: "ready" as const, tools: 0, unapproved: [{ name: "b", change: "new" as const, fields: ["description"], held: true }] }];
 * const report = inspectCatalog(new McpCatalog([]), statuses, { pinned: [] });
 * withChanges(report, [{ server: "a", name: "b", change: "new", fields: ["description"], live }]);
 * equal(report.servers[0]?.unapproved?.[0]?.changes?.[0]?.live, '"Does B"');
 * ```
 */
export function withChanges(
  report: InspectReport,
  unapproved: readonly Unapproved[],
): InspectReport {
  const byId = new Map(unapproved.map((tool) => [`${tool.server}/${tool.name}`, tool]));
  for (const server of report.servers) {
    for (const tool of server.unapproved ?? []) {
      const found = byId.get(`${server.server}/${tool.name}`);
      if (found !== undefined) tool.changes = fieldChanges(found);
    }
  }
  return report;
}

/**
 * The lines that show each changed field: its name, then the approved and the live value (JSON,
 * invisible characters escaped), each line of a value indented under its label.
 *
 * @param changes The changes.
 * @param indent What each line starts with.
 * @returns The lines.
 *
 * @example Usage
 * ```ts
 * import { changeLines } from "./inspect.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(changeLines([{ field: "description", approved: '"A"', live: '"A\\u200b"' }], ""), [
 *   "description",
 *   '  approved: "A"',
 *   '  live:     "A\\u200b"',
 * ]);
 * ```
 */
export function changeLines(changes: readonly FieldChange[], indent: string): string[] {
  const value = (label: string, text: string | null | undefined) => {
    const shown = text === undefined
      ? "(not recorded: approved under a version 1 lock, which kept hashes only)"
      : text === null
      ? "(absent)"
      : text;
    return `${indent}  ${label.padEnd(9)} ${shown.replaceAll("\n", `\n${indent}            `)}`;
  };
  return changes.flatMap((change) => [
    `${indent}${change.field}`,
    value("approved:", change.approved),
    value("live:", change.live),
  ]);
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => i === 0 || i === 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))
      .join("  ").trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}
