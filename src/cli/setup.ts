/**
 * `unfold setup HOST`: moves a host's MCP servers — from every place the host keeps them, or the
 * one `--scope`/`--file` names — into unfold's own config, under a profile named for the host (so
 * each host keeps exactly its servers), and leaves one `unfold` entry that starts the gateway for
 * that profile. Each file is edited as a transaction (`utils/file_transaction.ts`) and each
 * change is recorded per file (`hosts/records.ts`), so that `--undo` (`setup_undo.ts`) reverses
 * exactly it against the files as they are then. `--dry-run` lists every place and prints each file's
 * change, writing nothing; a second run changes nothing; no servers found, nothing written.
 *
 * Doors that write a user's file: this module and `setup_undo.ts`, through
 * `utils/file_transaction.ts` alone.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { createTwoFilesPatch } from "diff";
import { closest } from "../gateway/config/profiles.ts";
import type { Outcome } from "./hosts/edit.ts";
import { HOST_NAMES, type HostSpec, hostSpec, type Place } from "./hosts/known.ts";
import { gatewayEntry } from "./hosts/gateway_entry.ts";
import { decodeLossless, encodeLossless } from "./hosts/text_bytes.ts";
import {
  checkWritable,
  commitEdit,
  editTarget,
  type FileState,
  readForEdit,
  withFileLock,
} from "../utils/file_transaction.ts";
import {
  type FileRecord,
  loadRecords,
  nextRun,
  recordPath,
  saveRecord,
  snapshot,
  type Step,
  type StoredRecord,
} from "./hosts/records.ts";
import { projectRoot } from "./hosts/project_dirs.ts";
import {
  type FilePlan,
  type FileWork,
  finish,
  placeServersOf,
  planChecked,
  planFile,
  printPlaces,
  readFiles,
  report,
  type SetupContext,
  type SetupOptions,
  unique,
} from "./setup_plan.ts";

export type { SetupContext, SetupOptions } from "./setup_plan.ts";

// How often one file is read again when it changed while being written.
const MAX_TRIES = 10;

/**
 * Runs `unfold setup`.
 *
 * @param options What to set up, where, and how to print.
 * @returns The exit code: 0 done (or nothing to do), 1 a file that cannot be used, 2 an unknown
 *   host or scope.
 */
export async function setup(options: SetupOptions): Promise<number> {
  const { host, error } = options;
  const spec = hostSpec(host);
  if (spec === undefined) {
    error(
      `unfold: unknown host ${host}${closest(host, HOST_NAMES)} (hosts: ${HOST_NAMES.join(", ")})`,
    );
    return 2;
  }
  if (options.scope !== undefined && !spec.scopes.includes(options.scope)) {
    error(
      `unfold: ${spec.label} has no scope ${options.scope}${closest(options.scope, spec.scopes)} ` +
        `(scopes: ${spec.scopes.join(", ")})`,
    );
    return 2;
  }
  const config = resolve(options.config);
  const setupDir = join(dirname(config), "setup");
  const ctx: SetupContext = {
    options,
    host,
    spec,
    places: [],
    config,
    setupDir,
    lockDir: join(setupDir, "locks"),
    fail: (line) => (error(`unfold: ${line}`), 1),
  };
  const places = choosePlaces(spec, options);
  if (!places.ok) return ctx.fail(places.error);
  ctx.places = places.value;
  try {
    if (options.dryRun && !options.undo) return await runSetup(ctx);
    if (options.dryRun) return await (await import("./setup_undo.ts")).undoSetup(ctx);
    // unfold's own folder first: its lock and records go there.
    for (const path of [config, join(ctx.lockDir, "x.lock")]) {
      const writable = checkWritable(path);
      if (!writable.ok) return ctx.fail(writable.error);
    }
    return await withFileLock(ctx.lockDir, editTarget(config), async () => {
      if (!options.undo) return await runSetup(ctx);
      const { undoSetup } = await import("./setup_undo.ts");
      return await undoSetup(ctx);
    });
  } catch (e) {
    return ctx.fail(`setup stopped: ${(e as Error).message.split("\n")[0]}`);
  }
}

// The places setup works on: the one `--file` names, else the host's (in one scope with --scope).
function choosePlaces(spec: HostSpec, options: SetupOptions): Outcome<Place[]> {
  const cwd = options.cwd ?? Deno.cwd();
  const all = spec.places(options.env, Deno.build.os, cwd).filter((p) => p.file !== "");
  if (options.file !== undefined) {
    const scope = options.scope ?? "file";
    const pointer = options.scope === "local"
      ? ["projects", projectRoot(cwd), "mcpServers"]
      : all.find((p) => p.scope === scope)?.pointer ?? [spec.serversKey];
    return { ok: true, value: [{ scope, file: resolve(options.file), pointer: [...pointer] }] };
  }
  if (all.length === 0) {
    return {
      ok: false,
      error: "the environment names no home folder: give the host's file with --file",
    };
  }
  return {
    ok: true,
    value: options.scope === undefined ? all : all.filter((p) => p.scope === options.scope),
  };
}

async function runSetup(ctx: SetupContext): Promise<number> {
  const { spec, options, config, fail } = ctx;
  const configRead = await readForEdit(config);
  if (!configRead.ok) return fail(configRead.error);
  const configState = configRead.value;
  const configText = decodeLossless(configState.bytes ?? new Uint8Array());
  const files = await readFiles(ctx.places);
  if (!files.ok) return fail(files.error);
  const entry = gatewayEntry(spec, config, ctx.host, options.env);
  // Where the entry goes: the place the host prefers among those with servers to move or setup's
  // entry already (the user's scope before a project's), so the host sees the moved servers
  // wherever it saw them.
  const found: { place: Place; moved: string[]; ours: boolean }[] = [];
  for (const work of files.value) {
    for (const place of work.places) {
      const read = placeServersOf(ctx, work.decoded.text, place);
      if (!read.ok) return fail(`${place.file} ${read.error}`);
      found.push({ place, moved: read.value.moved.map(([n]) => n), ours: read.value.ours });
    }
  }
  found.sort((a, b) => ctx.places.indexOf(a.place) - ctx.places.indexOf(b.place));
  const rank = (p: Place) => Math.max(0, spec.scopes.indexOf(p.scope));
  const candidates = found.filter((f) => f.moved.length > 0 || f.ours)
    .sort((a, b) => rank(a.place) - rank(b.place));
  const entryPlace = candidates[0]?.place;
  const total = found.reduce((n, f) => n + f.moved.length, 0);
  if (options.dryRun) printPlaces(ctx, found);
  if (total === 0) {
    const where = found.find((f) => f.ours)?.place;
    if (where !== undefined) {
      options.print(`${spec.label} already starts unfold (${where.file}): nothing to change`);
    } else {
      options.print(
        `Found no servers for ${spec.label} to move (${
          found.map((f) => f.place.file).filter(unique).join(", ")
        }): nothing was written`,
      );
    }
    return 0;
  }
  const plans = new Map<FileWork, FilePlan>();
  for (const work of files.value) {
    const plan = planFile(ctx, work, entryPlace, entry);
    if (!plan.ok) return fail(plan.error);
    if (plan.value.steps.length > 0) plans.set(work, plan.value);
  }
  // In the order the host prefers its places: on a clash of names, its favourite keeps the name.
  const allMoves = () =>
    [...plans.values()].flatMap((p) => p.moves)
      .sort((a, b) => ctx.places.indexOf(a.place) - ctx.places.indexOf(b.place));
  const first = planChecked(ctx, configText.text, allMoves());
  if (!first.ok) return fail(first.error);
  if (options.dryRun) {
    const diffs: [string, string, string][] = [[config, configText.text, first.value.text]];
    for (const [work, plan] of plans) diffs.push([work.state.path, work.decoded.text, plan.text]);
    for (const [path, before, after] of diffs) {
      if (before !== after) options.print(createTwoFilesPatch(path, path, before, after).trimEnd());
    }
    options.print("Dry run: nothing was written.");
    return 0;
  }
  // Every file is checked before any is written: a read-only one stops setup whole.
  for (const path of [...[...plans.keys()].map((w) => w.state.path)]) {
    const writable = checkWritable(path);
    if (!writable.ok) return fail(writable.error);
  }
  const loaded = await loadRecords(ctx.setupDir);
  if (!loaded.ok) return fail(loaded.error);
  const run = nextRun(loaded.value);
  const records = new Map<FileWork, StoredRecord>();
  const pending = (work: FileWork, plan: FilePlan, state: FileState): Step => ({
    run,
    at: new Date().toISOString(),
    state: "pending",
    before: snapshot(state.bytes, true),
    after: snapshot(encodeLossless({ ...work.decoded, text: plan.text }), false),
    places: plan.steps,
    config: {
      path: config,
      before: snapshot(configState.bytes, true),
      after: snapshot(undefined, false),
      servers: [],
      profile: { name: ctx.host, created: false, listCreated: false },
    },
  });
  for (const [work, plan] of plans) {
    const path = recordPath(ctx.setupDir, ctx.host, work.target);
    const known = loaded.value.find((r) => r.path === path);
    const record: FileRecord = known?.record ??
      { version: 1, host: ctx.host, file: work.state.path, target: work.target, steps: [] };
    record.steps.push(pending(work, plan, work.state));
    const stored = { path, record };
    records.set(work, stored);
    await saveRecord(stored);
  }
  // The host files, each under its lock; one that changed meanwhile is planned again from what
  // it holds now (a server its host added since is moved too), a bounded number of times.
  const done: FileWork[] = [];
  const stop = async (line: string) => {
    const { rollBack } = await import("./setup_undo.ts");
    await rollBack(ctx, done.map((w) => records.get(w)!), run);
    return fail(`${line}; nothing was changed`);
  };
  for (const [work, planned] of [...plans].sort(([a], [b]) => (a.target < b.target ? -1 : 1))) {
    let plan = planned;
    const outcome = await withFileLock(ctx.lockDir, work.target, async () => {
      for (let tries = 0; tries < MAX_TRIES; tries++) {
        const bytes = encodeLossless({ ...work.decoded, text: plan.text });
        if (await commitEdit(work.state, bytes, options.hooks) === "done") return "done";
        const again = await readFiles(work.places);
        if (!again.ok) return again.error;
        Object.assign(work, again.value[0]!);
        const replanned = planFile(ctx, work, entryPlace, entry);
        if (!replanned.ok) return replanned.error;
        plan = replanned.value;
        const stored = records.get(work)!;
        if (plan.steps.length === 0) {
          // Its host took out what setup was to move: nothing to do in this file now.
          plans.delete(work);
          stored.record.steps.pop();
          await saveRecord(stored);
          return "skipped";
        }
        plans.set(work, plan);
        stored.record.steps[stored.record.steps.length - 1] = pending(work, plan, work.state);
        await saveRecord(stored);
      }
      return `${work.state.path} kept changing while setup wrote it (${MAX_TRIES} tries)`;
    });
    if (outcome === "skipped") continue;
    if (outcome !== "done") return await stop(outcome);
    done.push(work);
  }
  if (plans.size === 0) {
    options.print(`Found no servers for ${spec.label} to move any more: nothing was written`);
    return 0;
  }
  // unfold's config, from the servers the host files gave up.
  let state = configState;
  let text = configText;
  for (let tries = 0;; tries++) {
    const moves = allMoves();
    const plan = planChecked(ctx, text.text, moves);
    if (!plan.ok) return await stop(plan.error);
    const bytes = encodeLossless({ ...text, text: plan.value.text });
    if (await commitEdit(state, bytes, options.hooks) === "done") {
      const ids = new Map(moves.map((move, i) => [move, plan.value.ids[i]!]));
      await finish(plans, records, plan.value, ids, snapshot(bytes, false));
      report(ctx, moves, plans, plan.value);
      return 0;
    }
    if (tries + 1 >= MAX_TRIES) return await stop(`${config} kept changing while setup wrote it`);
    const again = await readForEdit(config);
    if (!again.ok) return await stop(again.error);
    state = again.value;
    text = decodeLossless(state.bytes ?? new Uint8Array());
    for (const stored of records.values()) {
      stored.record.steps[stored.record.steps.length - 1]!.config.before = snapshot(
        state.bytes,
        true,
      );
    }
  }
}
