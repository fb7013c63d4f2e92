/**
 * `unfold setup HOST --undo`: the inverse of what setup recorded, against the files as they are
 * now. In each host file it takes out the entry setup put in and puts back the servers it moved —
 * unless the user removed one from unfold's config since (it stays gone), or the file has another
 * of that name now (the file's stays, and the moved one stays in unfold's config); everything the
 * host or the user wrote since stays. In unfold's config it takes out only what setup added and
 * nobody changed or uses since. What it cannot undo it says, with why. A file nothing touched
 * since setup gets its bytes from before setup back (or goes, when setup made it). `--file` and
 * `--scope` undo one file's or one scope's record alone.
 *
 * @module
 */

import { resolve } from "node:path";
import { createTwoFilesPatch } from "diff";
import { contentHash, own } from "./hosts/data.ts";
import { ENTRY_NAME } from "./hosts/gateway_entry.ts";
import { jsonData } from "./hosts/json_doc.ts";
import { type FileUndo, type Selected, undoFile } from "./hosts/inverse.ts";
import { decodeLossless, encodeLossless, type FileText } from "./hosts/text_bytes.ts";
import {
  checkWritable,
  commitEdit,
  editTarget,
  type FileState,
  readForEdit,
  withFileLock,
} from "../utils/file_transaction.ts";
import {
  loadRecords,
  saveRecord,
  snapshotBytes,
  type Step,
  type StoredRecord,
} from "./hosts/records.ts";
import { type ServerUndo, undoConfig } from "./hosts/unfold_edit.ts";
import type { SetupContext } from "./setup_plan.ts";
import { isRecord } from "../utils/record.ts";

// How often one file is read again when it changed while being written.
const MAX_TRIES = 10;

/**
 * Runs `unfold setup HOST --undo` (unfold's config is locked by the caller).
 *
 * @param ctx The host, its places, unfold's config.
 * @returns The exit code: 0 undone (what could be), 1 nothing to undo or a file that cannot be
 *   used (nothing was changed).
 */
export async function undoSetup(ctx: SetupContext): Promise<number> {
  const { options, config, fail, spec } = ctx;
  const loaded = await loadRecords(ctx.setupDir);
  if (!loaded.ok) return fail(loaded.error);
  const all = loaded.value.filter((r) => r.record.steps.some((s) => s.config.path === config));
  const selected = select(ctx, all);
  if (selected.length === 0) {
    const which = options.file !== undefined ? ` in ${options.file}` : "";
    const scope = options.scope ? ` (scope ${options.scope})` : "";
    // An unfold from before per-file records kept one copy per host, of the file's bytes alone.
    const legacy = `${ctx.setupDir}/${ctx.host}.backup.json`;
    const older = await Deno.stat(legacy).then(() => true, () => false)
      ? ` (${legacy} is an older unfold's copy of the host's file from before its setup)`
      : "";
    return fail(
      `nothing to undo for ${spec.label}${which}${scope}: no record of setup in ` +
        `${ctx.setupDir}/${ctx.host}${older}`,
    );
  }
  // Everything is read and checked before anything is written.
  const configRead = await readForEdit(config);
  if (!configRead.ok) return fail(`${configRead.error}: nothing was undone`);
  const configText = decodeLossless(configRead.value.bytes ?? new Uint8Array());
  const configData = jsonData(configText.text);
  if (!configData.ok) return fail(`${config}: ${configData.error}: nothing was undone`);
  if (configData.value !== undefined && !isRecord(configData.value)) {
    return fail(`${config} is not a JSON object: nothing was undone`);
  }
  const servers = own(configData.value, "mcpServers");
  const files = new Map<Selected, Awaited<ReturnType<typeof readForEdit>>>();
  for (const sel of selected) {
    const read = await readForEdit(sel.stored.record.file);
    if (!read.ok) return fail(`${read.error}: nothing was undone`);
    const planned = undoFile(ctx, sel, read.value.bytes, servers);
    if (typeof planned === "string") return fail(`${planned}: nothing was undone`);
    const writable = checkWritable(sel.stored.record.file);
    if (!writable.ok && !options.dryRun) {
      return fail(writable.error.replace("nothing was written", "nothing was undone"));
    }
    files.set(sel, read);
  }
  const writable = checkWritable(config);
  if (!writable.ok && !options.dryRun) {
    return fail(writable.error.replace("nothing was written", "nothing was undone"));
  }
  if (options.dryRun) return preview(ctx, selected, files, configRead.value, configText, all);
  // The host files, each under its lock, planned again from what it holds if it changed.
  const undone: ServerUndo[] = [];
  const lines: string[] = [];
  const notes: string[] = [];
  for (const sel of selected) {
    const { record } = sel.stored;
    const result = await withFileLock(ctx.lockDir, editTarget(record.file), async () => {
      let read = files.get(sel)!;
      for (let tries = 0; tries < MAX_TRIES; tries++) {
        if (!read.ok) return read.error;
        const planned = undoFile(ctx, sel, read.value.bytes, servers);
        if (typeof planned === "string") return planned;
        if (await commitEdit(read.value, planned.bytes, options.hooks) === "done") return planned;
        read = await readForEdit(record.file);
      }
      return `${record.file} kept changing while --undo wrote it (${MAX_TRIES} tries)`;
    });
    if (typeof result === "string") {
      return fail(
        `${result}; ${
          lines.length === 0 ? "nothing was undone" : "undone so far: " + lines.join("; ")
        }`,
      );
    }
    lines.push(fileLine(sel, result));
    notes.push(...result.notes);
    for (const { step, places } of sel.steps) {
      for (const moved of places.flatMap((p) => p.removed)) {
        undone.push({ step, id: moved.id, keep: result.keep.has(moved.id) });
      }
    }
  }
  const remaining = withoutUndone(selected, all, config);
  const configLine = await undoUnfoldConfig(
    ctx,
    configRead.value,
    configText,
    undone,
    remaining,
    notes,
  );
  if (typeof configLine !== "string") return configLine;
  for (const stored of all) await saveRecord(stored);
  for (const line of [...lines, configLine]) options.print(line);
  for (const note of notes) options.print(`Not undone: ${note}`);
  return 0;
}

// The records lose what is undone; the steps that remain (of any host, for this config).
function withoutUndone(
  selected: readonly Selected[],
  all: readonly StoredRecord[],
  config: string,
): Step[] {
  for (const sel of selected) {
    for (const { step, places } of sel.steps) {
      step.places = step.places.filter((p) => !places.includes(p));
    }
    sel.stored.record.steps = sel.stored.record.steps.filter((s) => s.places.length > 0);
  }
  return all.flatMap((r) => r.record.steps).filter((s) => s.config.path === config);
}

// What --undo would do, each file's change and what it would say; nothing written.
function preview(
  ctx: SetupContext,
  selected: readonly Selected[],
  files: Map<Selected, Awaited<ReturnType<typeof readForEdit>>>,
  configState: FileState,
  configText: FileText,
  all: readonly StoredRecord[],
): number {
  const { options, config } = ctx;
  const data = jsonData(configText.text);
  const servers = own(data.ok ? data.value : undefined, "mcpServers");
  const undone: ServerUndo[] = [];
  const lines: string[] = [];
  const notes: string[] = [];
  const diff = (path: string, before: Uint8Array | undefined, after: Uint8Array | undefined) => {
    const [a, b] = [before, after].map((bytes) => decodeLossless(bytes ?? new Uint8Array()).text);
    if (a !== b || (before === undefined) !== (after === undefined)) {
      options.print(createTwoFilesPatch(path, path, a!, b!).trimEnd());
    }
  };
  for (const sel of selected) {
    const read = files.get(sel)!;
    if (!read.ok) continue;
    const planned = undoFile(ctx, sel, read.value.bytes, servers);
    if (typeof planned === "string") return ctx.fail(planned);
    diff(sel.stored.record.file, read.value.bytes, planned.bytes);
    lines.push(fileLine(sel, planned));
    notes.push(...planned.notes);
    for (const { step, places } of sel.steps) {
      for (const moved of places.flatMap((p) => p.removed)) {
        undone.push({ step, id: moved.id, keep: planned.keep.has(moved.id) });
      }
    }
  }
  const remaining = withoutUndone(selected, all, config);
  const planned = configUndo(ctx, configState, configText, undone, remaining);
  if (typeof planned === "number") return planned;
  diff(config, configState.bytes, planned.bytes);
  options.print("--undo would say:");
  for (const line of [...lines, planned.line]) options.print(`  ${line}`);
  for (const note of [...notes, ...planned.notes]) options.print(`  Not undone: ${note}`);
  options.print("Dry run: nothing was written.");
  return 0;
}

/**
 * Takes back what a setup run had written before it stopped (the host files it had changed), so
 * that a failed setup leaves nothing behind: the servers go back, its entry goes.
 *
 * @param ctx The setup.
 * @param records The records of the files it had written.
 * @param run The run.
 */
export async function rollBack(
  ctx: SetupContext,
  records: readonly StoredRecord[],
  run: number,
): Promise<void> {
  const loaded = await loadRecords(ctx.setupDir);
  const stored = loaded.ok ? loaded.value : [];
  for (const { path, record } of stored) {
    const steps = record.steps.filter((s) => s.run === run);
    if (steps.length === 0) continue;
    if (records.some((r) => r.path === path)) {
      const sel: Selected = {
        stored: { path, record },
        steps: steps.map((step) => ({ step, places: step.places })),
      };
      for (const step of steps) step.state = "pending"; // nothing reached unfold's config
      await withFileLock(ctx.lockDir, editTarget(record.file), async () => {
        for (let tries = 0; tries < MAX_TRIES; tries++) {
          const read = await readForEdit(record.file);
          if (!read.ok) return;
          const planned = undoFile(ctx, sel, read.value.bytes, undefined);
          if (typeof planned === "string") return;
          if (await commitEdit(read.value, planned.bytes) === "done") return;
        }
      });
    }
    record.steps = record.steps.filter((s) => s.run !== run);
    await saveRecord({ path, record });
  }
}

// The records (and steps, and places) this undo is about, newest step first.
function select(ctx: SetupContext, all: readonly StoredRecord[]): Selected[] {
  const { options, config } = ctx;
  const target = options.file === undefined ? undefined : editTarget(options.file);
  const out: Selected[] = [];
  for (const stored of all) {
    const { record } = stored;
    if (record.host !== ctx.host) continue;
    if (
      options.file !== undefined && record.target !== target &&
      resolve(record.file) !== resolve(options.file)
    ) continue;
    const steps = [...record.steps].filter((s) => s.config.path === config)
      .sort((a, b) => b.run - a.run)
      .map((step) => ({
        step,
        places: step.places.filter((p) => options.scope === undefined || p.scope === options.scope),
      }))
      .filter((s) => s.places.length > 0);
    if (steps.length > 0) out.push({ stored, steps });
  }
  return out;
}

// unfold's config undone: back to its bytes when nothing touched it since the runs undone, else
// the inverse of what they added; a config setup made, left with nothing, goes.
function configUndo(
  ctx: SetupContext,
  state: FileState,
  decoded: FileText,
  undone: readonly ServerUndo[],
  remaining: readonly Step[],
): { bytes: Uint8Array | undefined; line: string; notes: string[] } | number {
  const { config } = ctx;
  const runs = [...new Set(undone.map((u) => u.step.run))].sort((a, b) => b - a);
  let bytes: Uint8Array | undefined = state.bytes;
  let body = decoded.text;
  let restored = false;
  const took = { servers: [] as string[], profiles: [] as string[] };
  const notes: string[] = [];
  for (const run of runs) {
    const mine = undone.filter((u) => u.step.run === run);
    const step = mine[0]!.step;
    const whole = !remaining.some((s) => s.run === run);
    const plain = mine.every((u) => !u.keep);
    if (whole && plain && contentHash(bytes) === step.config.after.sha256) {
      bytes = snapshotBytes(step.config.before);
      body = decodeLossless(bytes ?? new Uint8Array()).text;
      restored = true;
      continue;
    }
    const edit = undoConfig(body, config, mine, remaining);
    if (!edit.ok) return ctx.fail(`${config} ${edit.error}`);
    body = edit.value.text;
    bytes = encodeLossless({ ...decoded, text: body });
    restored = false;
    took.servers.push(...edit.value.servers);
    took.profiles.push(...edit.value.profiles);
    notes.push(...edit.value.notes);
  }
  // A config setup made, left with nothing in it and no record of setup, goes too.
  const made = undone.some((u) =>
    u.step.config.made === true || u.step.config.before.sha256 === "absent"
  );
  if (made && remaining.length === 0 && isBareConfig(body)) bytes = undefined;
  if (made && remaining.length > 0) remaining[0]!.config.made = true;
  const parts = [
    ...(took.servers.length > 0 ? [`servers ${took.servers.join(", ")}`] : []),
    ...(took.profiles.length > 0 ? [`profile ${took.profiles.join(", ")}`] : []),
  ];
  const line = bytes === undefined
    ? `Removed ${config}: setup had made it`
    : restored
    ? `Restored ${config} as it was before setup`
    : parts.length === 0
    ? `Took nothing out of ${config}`
    : `Took ${parts.join("; ")} out of ${config}`;
  return { bytes, line, notes };
}

// unfold's config written undone, planned again from what it holds if it changed meanwhile.
async function undoUnfoldConfig(
  ctx: SetupContext,
  state: FileState,
  text: FileText,
  undone: readonly ServerUndo[],
  remaining: readonly Step[],
  notes: string[],
): Promise<string | number> {
  let current = state;
  let decoded = text;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const planned = configUndo(ctx, current, decoded, undone, remaining);
    if (typeof planned === "number") return planned;
    if (await commitEdit(current, planned.bytes, ctx.options.hooks) === "done") {
      notes.push(...planned.notes);
      return planned.line;
    }
    const again = await readForEdit(ctx.config);
    if (!again.ok) return ctx.fail(again.error);
    current = again.value;
    decoded = decodeLossless(current.bytes ?? new Uint8Array());
  }
  return ctx.fail(`${ctx.config} kept changing while --undo wrote it; the host files are undone`);
}

// Nothing but an empty mcpServers, and no comment: what setup's inverse edits leave of a config
// it made.
function isBareConfig(text: string): boolean {
  return /^\s*\{\s*("mcpServers"\s*:\s*\{\s*\}\s*)?\}\s*$/.test(text);
}

function fileLine(sel: Selected, result: FileUndo): string {
  const { file } = sel.stored.record;
  if (result.bytes === undefined) return `Removed ${file}: setup had made it`;
  if (result.restored) return `Restored ${file} as it was before setup`;
  const scopes = [...new Set(sel.steps.flatMap((s) => s.places.map((p) => p.scope)))]
    .filter((s) => s !== "file");
  const parts = [
    result.putBack.length > 0 ? `put back ${result.putBack.join(", ")}` : "put back no server",
    ...(result.entryOut ? [`took out the ${ENTRY_NAME} entry`] : []),
  ];
  return `Undid setup in ${file}${scopes.length > 0 ? ` (${scopes.join(", ")})` : ""}: ${
    parts.join("; ")
  }`;
}
