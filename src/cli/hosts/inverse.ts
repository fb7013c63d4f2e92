/**
 * One host file's `--undo`: the inverse of what setup's recorded steps did to it, made from the
 * bytes it holds now. Setup's entry goes (when it still starts this config's gateway); each moved
 * server comes back as it was written — unless unfold's config no longer has it (the user took it
 * out since: it stays out), or the file has another of that name now (the file's stays, and the
 * moved one stays in unfold's config). A step nothing touched since gives back the bytes from
 * before it; a file setup made, left empty, goes.
 *
 * @module
 */

import { contentHash, own, sameData } from "./data.ts";
import { editPlace, placeServers } from "./edit.ts";
import { ENTRY_NAME, isGatewayEntry } from "./gateway_entry.ts";
import { jsonData } from "./json_doc.ts";
import { hostFormat } from "./entries.ts";
import { decodeLossless, encodeLossless } from "./text_bytes.ts";
import {
  type MovedServer,
  type PlaceStep,
  snapshotBytes,
  type Step,
  type StoredRecord,
} from "./records.ts";
import { isRecord } from "../../utils/record.ts";

/**
 * What becomes of one moved server: put back; gone from unfold's config since (it stays gone);
 * changed there since (put back as it was, the changed one kept).
 */
export type Fate = "back" | "gone" | "changed";

/** The steps of one record to undo, newest first, each with the places to undo. */
export interface Selected {
  stored: StoredRecord;
  steps: { step: Step; places: PlaceStep[] }[];
}

/** One file's undo: its new bytes (`undefined`: remove it), and what to say. */
export interface FileUndo {
  bytes: Uint8Array | undefined;
  restored: boolean;
  putBack: string[];
  entryOut: boolean;
  notes: string[];
  /** Moved servers to keep in unfold's config (the file has another of the name). */
  keep: Set<string>;
}

/**
 * What becomes of a moved server, by what unfold's config holds now.
 *
 * @param step The step that moved it.
 * @param moved The server.
 * @param servers unfold's `mcpServers` now.
 * @returns Its fate.
 */
export function fate(step: Step, moved: MovedServer, servers: unknown): Fate {
  if (step.state === "pending") return "back";
  const now = own(servers, moved.id);
  if (now === undefined) return "gone";
  const recorded = step.config.servers.find((s) => s.id === moved.id)?.entry;
  return recorded === undefined || sameData(now, recorded) ? "back" : "changed";
}

/**
 * One file's inverse edit, from its bytes now.
 *
 * @param ctx unfold's config and the host (to know setup's entry).
 * @param sel The steps and places to undo.
 * @param bytes The file's bytes now (`undefined`: no file).
 * @param servers unfold's `mcpServers` now.
 * @returns The new bytes and what to say, or why the file cannot be undone, in one line.
 */
export function undoFile(
  ctx: { config: string; host: string },
  sel: Selected,
  bytes: Uint8Array | undefined,
  servers: unknown,
): FileUndo | string {
  const { record } = sel.stored;
  const { config } = ctx;
  const decoded = decodeLossless(bytes ?? new Uint8Array());
  let current: Uint8Array | undefined = bytes;
  let text = decoded.text;
  const out: FileUndo = {
    bytes,
    restored: false,
    putBack: [],
    entryOut: false,
    notes: [],
    keep: new Set(),
  };
  for (const { step, places } of sel.steps) {
    const fates = places.flatMap((p) => p.removed.map((m) => fate(step, m, servers)));
    const whole = places.length === step.places.length;
    if (whole && contentHash(current) === step.after.sha256 && fates.every((f) => f === "back")) {
      // Nothing touched the file since this step: its bytes from before it.
      current = snapshotBytes(step.before);
      text = decodeLossless(current ?? new Uint8Array()).text;
      out.restored = true;
      out.putBack.push(...places.flatMap((p) => p.removed.map((m) => m.name)));
      out.entryOut ||= places.some((p) => p.added !== undefined);
      continue;
    }
    out.restored = false;
    for (const place of places) {
      const read = placeServers(text, record.file, place.pointer);
      if (!read.ok) return `${record.file} ${read.error}`;
      const now = read.value ?? new Map();
      const remove: string[] = [];
      if (place.added !== undefined && now.has(ENTRY_NAME)) {
        const entry = now.get(ENTRY_NAME)!.value;
        if (sameData(entry, place.added.value) || isGatewayEntry(entry, config, ctx.host)) {
          remove.push(ENTRY_NAME);
          now.delete(ENTRY_NAME);
          out.entryOut = true;
        } else {
          out.notes.push(
            `kept ${ENTRY_NAME} in ${record.file}: changed since setup, it no longer starts unfold's gateway`,
          );
        }
      }
      const add: { name: string; value: unknown; raw: string }[] = [];
      for (const moved of place.removed) {
        const what = fate(step, moved, servers);
        if (what === "gone") {
          out.notes.push(
            `${moved.name} not put back into ${record.file}: it was taken out of ${config} since setup`,
          );
          continue;
        }
        const there = now.get(moved.name);
        if (there !== undefined) {
          if (!sameData(there.value, moved.value)) {
            out.keep.add(moved.id);
            out.notes.push(
              `${moved.name} not put back into ${record.file}: the file has another ${moved.name} ` +
                `since setup (kept, and the moved one stays in ${config} as ${moved.id})`,
            );
          }
          continue;
        }
        if (what === "changed") {
          out.keep.add(moved.id);
          out.notes.push(
            `kept ${moved.id} in ${config}: changed there since setup (${record.file} has ` +
              `${moved.name} as it was before setup again)`,
          );
        }
        add.push({ name: moved.name, value: moved.value, raw: moved.raw });
        now.set(moved.name, { value: moved.value, raw: moved.raw });
        out.putBack.push(moved.name);
      }
      if (remove.length === 0 && add.length === 0 && !place.keyCreated) continue;
      const edited = editPlace(text, record.file, place.pointer, {
        remove,
        add,
        dropIfEmpty: place.keyCreated,
      });
      if (!edited.ok) return `${record.file} ${edited.error}`;
      text = edited.value;
    }
    current = encodeLossless({ ...decoded, text });
  }
  // A file setup made, holding nothing again, goes.
  const made = record.steps[0]?.before.sha256 === "absent" &&
    sel.steps.length === record.steps.length &&
    sel.steps.every(({ step, places }) => places.length === step.places.length);
  if (made && isEmptyFile(text, record.file)) current = undefined;
  out.bytes = current;
  return out;
}

function isEmptyFile(text: string, file: string): boolean {
  if (text.trim() === "") return true;
  if (hostFormat(file) === "toml") return text.split("\n").every((l) => /^\s*(#.*)?$/.test(l));
  const data = jsonData(text);
  return data.ok && isRecord(data.value) && Object.keys(data.value).length === 0;
}
