/**
 * unfold's own config as `unfold setup` changes it, and changes it back: the moved servers added
 * under names of their own and listed in the host's profile (`setup`), then only what setup added
 * taken out again (`--undo`): a server the user already had, a profile they wrote, a server or a
 * profile changed by hand since, or one another host's record still uses, stays, and is said.
 * Edits are in place (jsonc-parser): the rest of the file keeps its bytes.
 *
 * @module
 */

import { own, sameData } from "./data.ts";
import { jsonData, jsonServers, type Outcome, setJson } from "./json_doc.ts";
import type { ConfigServer, ConfigStep, Step } from "./records.ts";
import { SERVER_NAME } from "../../gateway/config/servers.ts";
import { ENTRY_NAME } from "./gateway_entry.ts";
import { isRecord } from "../../utils/record.ts";

/** A server to move, in unfold's words. */
export interface Move {
  name: string;
  entry: Record<string, unknown>;
}

/** What setup does to unfold's config. */
export interface ConfigPlan {
  text: string;
  /** The id of each move, in order. */
  ids: string[];
  servers: ConfigServer[];
  profile: ConfigStep["profile"];
  /** Moves whose id is not their name, and why. */
  renamed: { from: string; to: string; why: string }[];
}

/**
 * unfold's config with servers added to it and to a host's profile.
 *
 * @param text The config's text (`""` for none yet).
 * @param profile The host's profile.
 * @param moves The servers.
 * @returns The new text and what was done, or why the config cannot be changed, in one line.
 */
export function planConfig(
  text: string,
  profile: string,
  moves: readonly Move[],
): Outcome<ConfigPlan> {
  const read = readConfig(text);
  if (!read.ok) return read;
  const { servers, profiles } = read.value;
  const current = own(profiles, profile);
  const list = own(current, "servers");
  if (current !== undefined && (!isRecord(current) || (list !== undefined && !isNames(list)))) {
    return {
      ok: false,
      error: `its profile ${JSON.stringify(profile)} is not an object with a list of servers`,
    };
  }
  // A profile of the user's with no list serves every server: the moved ones join it as they are.
  const everything = current !== undefined && list === undefined;
  const names = [...((list as string[] | undefined) ?? [])];
  const taken = new Map<string, unknown>(Object.entries(servers ?? {}));
  const plan: ConfigPlan = {
    text: text.trim() === "" ? "" : text,
    ids: [],
    servers: [],
    profile: { name: profile, created: current === undefined, listCreated: false },
    renamed: [],
  };
  for (const move of moves) {
    const [base, why] = baseName(move.name, profile);
    let id = base;
    for (let n = 1; taken.has(id) && !sameData(taken.get(id), move.entry); n++) {
      id = fit(`${profile}-${base}`, n === 1 ? "" : `-${n}`);
    }
    const created = !taken.has(id);
    if (created) {
      taken.set(id, move.entry);
      plan.text = setJson(plan.text, ["mcpServers", id], move.entry);
    }
    const inProfile = !everything && !names.includes(id);
    if (inProfile) names.push(id);
    if (!plan.servers.some((s) => s.id === id)) {
      plan.servers.push({ id, entry: move.entry, created, inProfile });
    }
    plan.ids.push(id);
    if (id !== move.name) {
      plan.renamed.push({
        from: move.name,
        to: id,
        why: why ?? `${JSON.stringify(base)} is another server in unfold's config`,
      });
    }
  }
  if (current === undefined) {
    plan.text = setJson(plan.text, ["unfold", "profiles", profile], { servers: names });
  } else if (!everything && names.length !== (list as string[]).length) {
    plan.text = setJson(plan.text, ["unfold", "profiles", profile, "servers"], names);
  }
  return { ok: true, value: plan };
}

/** One server's undo, as the host side decided it. */
export interface ServerUndo {
  /** The step it was moved by. */
  step: Step;
  id: string;
  /** Keep it in unfold's config (changed there since, or the host has another of its name). */
  keep: boolean;
}

/** What `--undo` did to unfold's config. */
export interface ConfigUndo {
  text: string;
  /** Servers and profiles taken out. */
  servers: string[];
  profiles: string[];
  /** What could not be undone, and why. */
  notes: string[];
}

/**
 * unfold's config with what some steps added taken out again, as far as it is still theirs.
 * Ownership the undone steps held over what stays (a server, a profile another record of the same
 * host uses) passes to the remaining steps, which are changed in place.
 *
 * @param text The config's text now.
 * @param config Its path, for messages.
 * @param undone The servers to take out, by step.
 * @param remaining The steps that stay (other files, other scopes).
 * @returns The new text and what was done, or why the config cannot be read.
 */
export function undoConfig(
  text: string,
  config: string,
  undone: readonly ServerUndo[],
  remaining: readonly Step[],
): Outcome<ConfigUndo> {
  const read = readConfig(text);
  if (!read.ok) return read;
  const out: ConfigUndo = { text, servers: [], profiles: [], notes: [] };
  const servers = { ...(read.value.servers ?? {}) };
  const profiles = new Map(Object.entries(read.value.profiles ?? {}));
  const lists = new Map<string, string[]>();
  const listOf = (name: string) => {
    const profile = profiles.get(name);
    if (!lists.has(name)) {
      const list = own(profile, "servers");
      lists.set(name, isNames(list) ? [...list] : []);
    }
    return lists.get(name)!;
  };
  const steps = [...new Set(undone.map((u) => u.step))].sort((a, b) => b.run - a.run);
  const heldBy = (test: (step: Step) => boolean) => remaining.find(test);
  for (const step of steps) {
    const profile = step.config.profile.name;
    const mine = undone.filter((u) => u.step === step);
    for (const { id, keep } of mine) {
      const server = step.config.servers.find((s) => s.id === id);
      if (server === undefined) continue;
      const usedBy = heldBy((other) =>
        other.config.profile.name === profile && refersTo(other, id)
      );
      if (server.inProfile) {
        if (usedBy !== undefined) transfer(usedBy, server, { inProfile: true });
        else if (!keep) {
          const list = listOf(profile);
          if (list.includes(id)) {
            list.splice(list.indexOf(id), 1);
            out.text = setJson(out.text, ["unfold", "profiles", profile, "servers"], list);
          }
        }
      }
      if (!server.created || keep) continue;
      const user = heldBy((other) => refersTo(other, id));
      if (user !== undefined) {
        transfer(user, server, { created: true });
        continue;
      }
      if (!Object.hasOwn(servers, id)) continue;
      if (!sameData(servers[id], server.entry)) {
        out.notes.push(`kept ${id} in ${config}: changed there since setup`);
        continue;
      }
      const listing = [...profiles.keys()].filter((p) => listOf(p).includes(id));
      if (listing.length > 0) {
        out.notes.push(`kept ${id} in ${config}: profile ${listing.join(", ")} lists it`);
        continue;
      }
      delete servers[id];
      out.text = setJson(out.text, ["mcpServers", id], undefined);
      out.servers.push(id);
    }
    if (!step.config.profile.created || !profiles.has(profile)) continue;
    const heir = heldBy((other) => other.config.profile.name === profile);
    if (heir !== undefined) {
      heir.config.profile.created = true;
      continue;
    }
    const current = profiles.get(profile);
    const others = isRecord(current) ? Object.keys(current).filter((k) => k !== "servers") : [];
    const left = listOf(profile);
    if (others.length > 0) {
      out.notes.push(
        `kept profile ${profile} in ${config}: changed by hand since setup (${others.join(", ")})`,
      );
    } else if (left.length > 0) {
      out.notes.push(
        `kept profile ${profile} in ${config}: it lists servers setup did not add or kept (${
          left.join(", ")
        })`,
      );
    } else {
      profiles.delete(profile);
      out.text = setJson(out.text, ["unfold", "profiles", profile], undefined);
      out.profiles.push(profile);
    }
  }
  out.text = withoutEmptyBlock(out.text);
  return { ok: true, value: out };
}

// Whether a step moved a server to that id.
function refersTo(step: Step, id: string): boolean {
  return step.places.some((place) => place.removed.some((m) => m.id === id));
}

// Ownership of a server passes to a step that stays.
function transfer(step: Step, server: ConfigServer, flags: Partial<ConfigServer>): void {
  const held = step.config.servers.find((s) => s.id === server.id);
  if (held !== undefined) Object.assign(held, flags);
  else step.config.servers.push({ ...server, created: false, inProfile: false, ...flags });
}

// The `unfold` block without a profiles object left empty, and without itself when empty.
function withoutEmptyBlock(text: string): string {
  const read = jsonData(text);
  if (!read.ok) return text;
  const block = own(read.value, "unfold");
  const profiles = own(block, "profiles");
  let out = text;
  if (isRecord(profiles) && Object.keys(profiles).length === 0) {
    out = setJson(out, ["unfold", "profiles"], undefined);
    if (isRecord(block) && Object.keys(block).length === 1) {
      out = setJson(out, ["unfold"], undefined);
    }
  }
  return out;
}

// The config's servers and profiles, or why they cannot be read.
function readConfig(text: string): Outcome<{
  servers: Record<string, unknown> | undefined;
  profiles: Record<string, unknown> | undefined;
}> {
  const data = jsonData(text);
  if (!data.ok) return data;
  if (data.value !== undefined && !isRecord(data.value)) {
    return {
      ok: false,
      error: "is not a JSON object: fix it, or give another config with --config",
    };
  }
  // A key written twice is refused where setup reads and writes (the last one is what counts).
  for (const pointer of [["mcpServers"], ["unfold", "profiles"]]) {
    const checked = jsonServers(text, pointer);
    if (!checked.ok) return checked;
  }
  const servers = own(data.value, "mcpServers");
  const profiles = own(own(data.value, "unfold"), "profiles");
  if (servers !== undefined && !isRecord(servers)) {
    return { ok: false, error: "has mcpServers that is not an object of servers by name" };
  }
  if (profiles !== undefined && !isRecord(profiles)) {
    return { ok: false, error: "has unfold.profiles that is not an object of profiles by name" };
  }
  return { ok: true, value: { servers, profiles } };
}

function isNames(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

// A host's name for a server as a name unfold's config takes, and why it changed.
function baseName(name: string, profile: string): [string, string | undefined] {
  if (name === ENTRY_NAME) return [fit(`${profile}-${name}`), "unfold's own entry is named unfold"];
  if (SERVER_NAME.test(name)) return [name, undefined];
  const clean = fit(name.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^-+|-+$/g, "") || "server");
  return [clean, "a server name in unfold is 1 to 64 of A-Z a-z 0-9 _ . -"];
}

// A name cut to unfold's 64 characters, its suffix kept.
function fit(name: string, suffix = ""): string {
  return `${name.slice(0, 64 - suffix.length)}${suffix}`;
}
