/**
 * The host files' side of `unfold setup`: what it is asked (its options, shared with `--undo`),
 * each file read and its edit planned (each place's servers told from setup's own entry), unfold's
 * config planned and checked as the gateway will read it, the records completed, and what setup
 * says: every place and what it holds (`--dry-run`), what moved where.
 *
 * @module
 */

import { parseGatewayConfig } from "../gateway/config/parse.ts";
import { unfoldEntry } from "./hosts/entries.ts";
import { editPlace, type Outcome, placeServers, type ServerEntry } from "./hosts/edit.ts";
import { type Env, type HostSpec, type Place, placeWords } from "./hosts/known.ts";
import { ENTRY_NAME, isGatewayEntry } from "./hosts/gateway_entry.ts";
import { jsonData } from "./hosts/json_doc.ts";
import { decodeLossless, type FileText } from "./hosts/text_bytes.ts";
import {
  type CommitHooks,
  editTarget,
  type FileState,
  readForEdit,
} from "../utils/file_transaction.ts";
import {
  type ConfigServer,
  type PlaceStep,
  saveRecord,
  snapshot,
  type StoredRecord,
} from "./hosts/records.ts";
import { type ConfigPlan, type Move, planConfig } from "./hosts/unfold_edit.ts";
import { unfoldCommand } from "./hints.ts";
import { commandSpan } from "../utils/shell_words.ts";
import { isRecord } from "../utils/record.ts";

/** What `unfold setup` is asked to do. */
export interface SetupOptions {
  /** The host's name (`claude-desktop`, `vscode`, ...). */
  host: string;
  /** `--file`: one file of the host's, else every place it keeps servers. */
  file?: string;
  /** `--scope`: one of the host's scopes (`user`, `local`, `project`, `workspace`). */
  scope?: string;
  /** unfold's own config. */
  config: string;
  /** Whether the config was named (`--config`), so the undo hint names it too. */
  configGiven?: boolean;
  /** `--dry-run`. */
  dryRun: boolean;
  /** `--undo`. */
  undo: boolean;
  /** The environment (home, PATH, config folders). */
  env: Env;
  /** The folder the host would start in (its project), default the current one. */
  cwd?: string;
  /** Prints a line for the user (stdout). */
  print(line: string): void;
  /** Prints a mistake (stderr). */
  error(line: string): void;
  /** For tests: a concurrent writer's turn inside each commit. */
  hooks?: CommitHooks;
}

/** What both directions share: the host, its places, unfold's config and where records live. */
export interface SetupContext {
  options: SetupOptions;
  host: string;
  spec: HostSpec;
  places: Place[];
  config: string;
  setupDir: string;
  lockDir: string;
  fail(line: string): number;
}

/** One host file as setup works on it. */
export interface FileWork {
  target: string;
  places: Place[];
  state: FileState;
  decoded: FileText;
}

/**
 * The host files of some places, read (one per file, its places in order).
 *
 * @param places The places.
 * @returns The files, or the first that cannot be read, in one line.
 */
export async function readFiles(places: readonly Place[]): Promise<Outcome<FileWork[]>> {
  const files = new Map<string, FileWork>();
  for (const place of places) {
    const target = editTarget(place.file);
    const known = files.get(target);
    if (known !== undefined) {
      known.places.push(place);
      continue;
    }
    const read = await readForEdit(place.file);
    if (!read.ok) return read;
    const decoded = decodeLossless(read.value.bytes ?? new Uint8Array());
    files.set(target, { target, places: [place], state: read.value, decoded });
  }
  return { ok: true, value: [...files.values()] };
}

// One server to move out of a place.
export interface Moving extends Move {
  /** Moved disabled: a project's server the host had not been allowed to run. */
  unapproved: boolean;
  value: unknown;
  raw: string;
  place: Place;
}

// What one file's edit is: its new text, each place's step, its servers to move.
export interface FilePlan {
  text: string;
  steps: PlaceStep[];
  moves: Moving[];
}

/** A place's servers: setup's entry told from the host's own. */
export interface PlaceFound {
  /** Whether the place is there (else its servers' object would be made). */
  exists: boolean;
  /** Whether it holds setup's entry for this config and host. */
  ours: boolean;
  /** The host's own servers there. */
  moved: [string, ServerEntry][];
}

/**
 * A place's servers as setup sees them.
 *
 * @param ctx The setup.
 * @param text The file's text.
 * @param place The place.
 * @returns What it holds, or why it cannot be read.
 */
export function placeServersOf(ctx: SetupContext, text: string, place: Place): Outcome<PlaceFound> {
  const read = placeServers(text, place.file, place.pointer);
  if (!read.ok) return read;
  const servers = read.value ?? new Map<string, ServerEntry>();
  const ours = servers.has(ENTRY_NAME) &&
    isGatewayEntry(servers.get(ENTRY_NAME)!.value, ctx.config, ctx.host);
  const moved = [...servers].filter(([name]) => !(ours && name === ENTRY_NAME));
  return { ok: true, value: { exists: read.value !== undefined, ours, moved } };
}

/**
 * One file's edit: each place's servers out, the entry in where it goes.
 *
 * @param ctx The setup.
 * @param work The file.
 * @param entryPlace Where the entry goes.
 * @param entry The entry.
 * @returns The plan, or why the file cannot be edited.
 */
export function planFile(
  ctx: SetupContext,
  work: FileWork,
  entryPlace: Place | undefined,
  entry: Record<string, unknown>,
): Outcome<FilePlan> {
  let text = work.decoded.text;
  const plan: FilePlan = { text, steps: [], moves: [] };
  for (const place of work.places) {
    const read = placeServersOf(ctx, text, place);
    if (!read.ok) return { ok: false, error: `${place.file} ${read.error}` };
    const { moved, ours, exists } = read.value;
    const approvals = place.scope === "project"
      ? ctx.spec.approvals?.(ctx.options.env, ctx.options.cwd ?? Deno.cwd())
      : undefined;
    const add = place === entryPlace && !ours ? [{ name: ENTRY_NAME, value: entry }] : [];
    if (moved.length === 0 && add.length === 0) continue;
    for (const [name, { value, raw }] of moved) {
      const where = `${place.pointer.join("/")}/${name}`;
      if (!isRecord(value)) return { ok: false, error: `${place.file}: ${where} is not an object` };
      const normal = unfoldEntry(value, where);
      if (!normal.ok) return { ok: false, error: `${place.file}: ${normal.error}` };
      // A project's server the host would not run yet (not approved) moves disabled.
      const unapproved = approvals !== undefined && !approvals.approved(name) &&
        normal.value.entry.disabled !== true;
      const entry = unapproved ? { ...normal.value.entry, disabled: true } : normal.value.entry;
      plan.moves.push({ name, entry, value, raw, place, unapproved });
    }
    const edited = editPlace(text, place.file, place.pointer, {
      remove: moved.map(([name]) => name),
      add,
    });
    if (!edited.ok) return { ok: false, error: `${place.file} ${edited.error}` };
    text = edited.value;
    plan.steps.push({
      scope: place.scope,
      pointer: [...place.pointer],
      keyCreated: !exists,
      removed: moved.map(([name, { value, raw }]) => ({ name, value, raw, id: name })),
      ...(add.length > 0 ? { added: add[0]! } : {}),
    });
  }
  plan.text = text;
  return { ok: true, value: plan };
}

/**
 * unfold's config with the moves added, checked as the gateway will read it.
 *
 * @param ctx The setup.
 * @param configText The config's text now.
 * @param moves The servers.
 * @returns The plan, or why the config would be invalid, in one line.
 */
export function planChecked(
  ctx: SetupContext,
  configText: string,
  moves: readonly Move[],
): Outcome<ConfigPlan> {
  const plan = planConfig(configText, ctx.host, moves);
  if (!plan.ok) return { ok: false, error: `${ctx.config} ${plan.error}` };
  const data = jsonData(plan.value.text);
  const env = ctx.options.env;
  const anyVariable = new Proxy({ ...env }, { get: (vars, name) => vars[name as string] ?? "set" });
  const checked = data.ok ? parseGatewayConfig(data.value, anyVariable) : undefined;
  if (checked !== undefined && !checked.ok) {
    return { ok: false, error: `${ctx.config} would be invalid: ${checked.error.message}` };
  }
  return plan;
}

/**
 * Completes a run's records once unfold's config is written: each moved server's id there, and
 * what each file's step added to the config (what the run made belongs to the first file that
 * moved it).
 *
 * @param plans Each file's plan.
 * @param records Each file's record.
 * @param plan The config's plan.
 * @param ids Each move's id in the config.
 * @param after The config's bytes after, as a snapshot.
 */
export async function finish(
  plans: Map<FileWork, FilePlan>,
  records: Map<FileWork, StoredRecord>,
  plan: ConfigPlan,
  ids: Map<Moving, string>,
  after: ReturnType<typeof snapshot>,
): Promise<void> {
  const claimed = new Set<string>();
  let profileClaimed = false;
  for (const [work, filePlan] of plans) {
    let at = 0;
    const stored = records.get(work)!;
    const step = stored.record.steps[stored.record.steps.length - 1]!;
    const servers: ConfigServer[] = [];
    for (const placeStep of step.places) {
      for (const moved of placeStep.removed) {
        const id = ids.get(filePlan.moves[at++]!)!;
        moved.id = id;
        const server = plan.servers.find((s) => s.id === id)!;
        if (servers.some((s) => s.id === id)) continue;
        // What the run made is owned by the first file that moved it.
        const first = !claimed.has(id);
        claimed.add(id);
        servers.push({
          ...server,
          created: first && server.created,
          inProfile: first && server.inProfile,
        });
      }
    }
    step.state = "done";
    step.config.after = after;
    step.config.servers = servers;
    step.config.profile = { ...plan.profile, created: plan.profile.created && !profileClaimed };
    profileClaimed = true;
    await saveRecord(stored);
  }
}
/**
 * What setup says when it is done: what moved from where into which profile, what was renamed
 * and why, what moved disabled.
 *
 * @param ctx The setup.
 * @param moves The servers moved, in order.
 * @param plans Each file's plan.
 * @param plan The config's plan.
 */
export function report(
  ctx: SetupContext,
  moves: readonly Moving[],
  plans: Map<FileWork, FilePlan>,
  plan: ConfigPlan,
): void {
  const { spec, options, config, host } = ctx;
  const names = moves.map((m) => m.name);
  const from = [...plans].map(([work, p]) => {
    const scopes = p.steps.map((s) => s.scope).filter((s) => s !== "file");
    return scopes.length === 0 ? work.state.path : `${work.state.path} (${scopes.join(", ")})`;
  });
  const entryAt = [...plans].find(([, p]) => p.steps.some((s) => s.added !== undefined));
  options.print(
    `Moved ${names.length} server${names.length === 1 ? "" : "s"} (${names.join(", ")}) from ${
      from.join(", ")
    } into ${config}, profile ${host}; ${spec.label} now starts unfold${
      plans.size > 1 && entryAt !== undefined ? ` (its entry is in ${entryAt[0].state.path})` : ""
    }. Restart ${spec.label}. To undo: ${
      commandSpan(
        unfoldCommand(
          "setup",
          host,
          ...(options.configGiven ? ["--config", config] : []),
          "--undo",
        ),
      )
    }`,
  );
  for (const { from, to, why } of plan.renamed) {
    options.print(`Renamed ${from} to ${to} in ${config}: ${why}`);
  }
  const unapproved = moves.filter((m) => m.unapproved).map((m) => m.name);
  if (unapproved.length > 0) {
    options.print(
      `Moved disabled, since ${spec.label} runs them only once approved for this project ` +
        `(enable them in ${config} when you trust them): ${unapproved.join(", ")}`,
    );
  }
  const disabled = moves.filter((m) => m.entry.disabled === true && !m.unapproved)
    .map((m) => m.name);
  if (disabled.length > 0) {
    options.print(`Moved disabled, and still disabled in ${config}: ${disabled.join(", ")}`);
  }
}
/**
 * Every place the host keeps servers, with what each holds (`--dry-run`).
 *
 * @param ctx The setup.
 * @param found Each place and its servers.
 */
export function printPlaces(
  ctx: SetupContext,
  found: readonly { place: Place; moved: string[]; ours: boolean }[],
): void {
  const { spec, options } = ctx;
  options.print(`${spec.label} keeps servers in:`);
  const width = Math.max(...found.map((f) => f.place.scope.length));
  for (const { place, moved, ours } of found) {
    const held = [...moved, ...(ours ? ["unfold (setup's entry)"] : [])];
    options.print(
      `  ${place.scope.padEnd(width)}  ${placeWords(place)}: ${
        held.length === 0 ? "none" : held.join(", ")
      }`,
    );
  }
}
/** For `filter`: each value once. */
export function unique<T>(value: T, index: number, all: readonly T[]): boolean {
  return all.indexOf(value) === index;
}
