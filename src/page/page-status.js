// unfold's page on a gateway: each upstream's state and trust, the profiles and the session
// counters, polled while the tab is visible.

import { $, call, count, fail, fmt, row, say, state } from "./page-core.js";

const STATUS_EVERY_MS = 5000;

const COUNTERS = [
  ["searches", "Searches"],
  ["misses", "Misses"],
  ["describes", "Describes"],
  ["executes", "Executes"],
  ["describeFirst", "Describe first"],
  ["invalidArguments", "Invalid arguments"],
  ["upstreamFailures", "Upstream failures"],
  ["tokensReturned", "Tokens returned"],
  ["resultsCut", "Results cut"],
  ["moreCalls", "More calls"],
];

export function showStatus(status) {
  $("status-section").hidden = false;
  $("status-table").tBodies[0].replaceChildren(...status.servers.map((s) => {
    const badge = document.createElement("span");
    badge.className = `state state-${String(s.state).replace(/[^a-z_]/g, "")}`;
    badge.textContent = s.state;
    const notes = [s.reason || ""];
    if (Array.isArray(s.quarantined) && s.quarantined.length > 0) {
      notes.push(`left out: ${s.quarantined.map((q) => q.name || q).join(", ")}`);
    }
    // Definitions the user has not approved: held ones (trust "pin") cannot be used yet.
    const unapproved = Array.isArray(s.unapproved) ? s.unapproved : [];
    const held = unapproved.filter((u) => u.held).map((u) => u.name);
    const flagged = unapproved.filter((u) => !u.held).map((u) => u.name);
    const trust = [];
    if (held.length > 0) trust.push(`awaiting approval: ${held.join(", ")}`);
    if (flagged.length > 0) trust.push(`not approved (flagged): ${flagged.join(", ")}`);
    return row([
      s.server,
      badge,
      notes.filter(Boolean).join("; "),
      withChanges(trust.join("; ") || "none pending", unapproved),
      fmt(s.tools),
      fmt(s.definitionTokens),
    ], [4, 5]);
  }));
  showProfiles(status);
  // A face that does not count (the Worker: each isolate would see a fraction) shows none.
  $("counters-section").hidden = !status.counters;
  const counters = status.counters || {};
  $("counters").replaceChildren(...COUNTERS.flatMap(([key, label]) => {
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.textContent = fmt(counters[key] ?? 0);
    const div = document.createElement("div");
    div.append(dt, dd);
    return [div];
  }));
  $("status-updated").textContent = `Updated ${new Date().toLocaleTimeString()}.`;
  $("catalog-summary").textContent = `Live catalogue: ${count(status.tools, "tool")} from ${
    count(status.servers.length, "upstream")
  }.`;
}

// A profile token's caller sees that profile alone; a gateway-wide one, every profile.
function showProfiles(status) {
  const profiles = Array.isArray(status.profiles) ? status.profiles : [];
  $("profiles-section").hidden = !status.profile && profiles.length === 0;
  $("profile-note").textContent = status.profile
    ? `This token opens the profile ${status.profile} alone, at /mcp/${
      encodeURIComponent(status.profile)
    }: the upstreams, tools and figures here are that profile's.`
    : `Each profile serves its own tools at its own endpoint.`;
  $("profiles-table").hidden = profiles.length === 0;
  $("profiles-table").tBodies[0].replaceChildren(...profiles.map((p) =>
    row([
      p.name,
      `/mcp/${encodeURIComponent(p.name)}`,
      fmt(p.tools),
      fmt(p.availableContextTokens),
    ], [2, 3])
  ));
}

// What the user would approve: the approved and the live value of each changed field, as the
// gateway sends them (JSON text, invisible characters already escaped), under a disclosure.
function withChanges(text, unapproved) {
  const shown = (value) => value === undefined ? "(not recorded)" : value ?? "(absent)";
  const lines = unapproved.filter((u) => Array.isArray(u.changes) && u.changes.length > 0)
    .flatMap((u) => [
      `${u.name} (${u.change})`,
      ...u.changes.flatMap((c) => [
        `  ${c.field}`,
        `    approved: ${shown(c.approved)}`,
        `    live:     ${shown(c.live)}`,
      ]),
    ]);
  if (lines.length === 0) return text;
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = "approved and live definitions";
  const pre = document.createElement("pre");
  pre.textContent = lines.join("\n");
  details.append(summary, pre);
  const cell = document.createElement("span");
  cell.append(text, details);
  return cell;
}

// A failed poll clears what the last one showed (and `lost` the rest of the page's figures); the
// next good one clears its message and `back` redraws them.
let statusFailed = false;
const hooks = { lost: () => {}, back: () => {} };
export async function pollStatus() {
  if (document.hidden || state.face !== "gateway") return;
  try {
    showStatus(await call("status"));
    if (statusFailed) {
      statusFailed = false;
      say("");
      await hooks.back();
    }
  } catch (error) {
    statusFailed = true;
    for (const id of ["status-table", "profiles-table"]) $(id).tBodies[0].replaceChildren();
    $("counters").replaceChildren();
    $("status-updated").textContent = "";
    $("catalog-summary").textContent = "Live catalogue: unknown (its status did not answer).";
    hooks.lost();
    fail(error);
  }
}

/**
 * Polls `/status` while the tab is visible.
 *
 * @param lost Clears the figures the page shows beside the status when it stops answering.
 * @param back Redraws them when it answers again.
 */
export function watchStatus(lost, back) {
  Object.assign(hooks, { lost, back });
  setInterval(pollStatus, STATUS_EVERY_MS);
  document.addEventListener("visibilitychange", pollStatus);
}
