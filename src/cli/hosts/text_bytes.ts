/**
 * A file's bytes as text and back, losing none of them: a UTF-8 byte order mark is set aside and
 * put back, and a byte that is not part of valid UTF-8 becomes a lone surrogate (U+DC80–U+DCFF,
 * Python's "surrogateescape") that turns back into that byte. `unfold setup` edits host files as
 * text; what it does not touch is the same bytes after the edit.
 *
 * @module
 */

/** A file's text, and how its bytes were written. */
export interface FileText {
  /** The text, a lone surrogate U+DCxx for each byte that was not UTF-8. */
  text: string;
  /** Whether the bytes began with a UTF-8 byte order mark (not in {@linkcode FileText.text}). */
  bom: boolean;
}

const BOM = [0xef, 0xbb, 0xbf];
// A surrogate that is not half of a pair: an escaped byte (or a broken character).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const STRICT = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes bytes without losing any.
 *
 * @param bytes The bytes.
 * @returns The text and whether there was a byte order mark.
 *
 * @example Usage
 * ```ts
 * import { decodeLossless, encodeLossless } from "./text_bytes.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x7d]);
 * deepEqual(encodeLossless(decodeLossless(bytes)), bytes);
 * ```
 */
export function decodeLossless(bytes: Uint8Array): FileText {
  const bom = BOM.every((b, i) => bytes[i] === b);
  const start = bom ? 3 : 0;
  try {
    // The common case, at native speed: all of it is UTF-8.
    return { text: STRICT.decode(bytes.subarray(start)), bom };
  } catch {
    // Some byte is not: decoded one sequence at a time below.
  }
  const units: number[] = [];
  let out = "";
  for (let i = start; i < bytes.length;) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      units.push(0xdc00 + bytes[i]!);
      i += 1;
    } else {
      const cp = codePoint(bytes, i, length);
      if (cp > 0xffff) {
        units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
      } else units.push(cp);
      i += length;
    }
    if (units.length >= 8192) {
      out += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return { text: out + String.fromCharCode(...units), bom };
}

/**
 * Encodes text decoded by {@linkcode decodeLossless} back into the same bytes.
 *
 * @param file The text and whether to begin with a byte order mark.
 * @returns The bytes.
 */
export function encodeLossless(file: FileText): Uint8Array {
  const { text } = file;
  if (!LONE_SURROGATE.test(text)) {
    const body = new TextEncoder().encode(text);
    if (!file.bom) return body;
    const all = new Uint8Array(body.length + 3);
    all.set(BOM);
    all.set(body, 3);
    return all;
  }
  const out: number[] = file.bom ? [...BOM] : [];
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      pushUtf8(out, 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00));
      i++;
    } else if (unit >= 0xdc80 && unit <= 0xdcff) out.push(unit - 0xdc00);
    else pushUtf8(out, unit >= 0xd800 && unit <= 0xdfff ? 0xfffd : unit);
  }
  return new Uint8Array(out);
}

/**
 * The line ending a text uses: `"\r\n"` when its first line ends so, else `"\n"`.
 *
 * @param text The text.
 * @returns The line ending.
 */
export function lineEnding(text: string): "\n" | "\r\n" {
  const at = text.indexOf("\n");
  return at > 0 && text[at - 1] === "\r" ? "\r\n" : "\n";
}

// The length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none.
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => {
    const c = bytes[i + k];
    return c !== undefined && c >= lo && c <= hi;
  };
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (b === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0; // no surrogates
  if (b >= 0xe1 && b <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

function codePoint(bytes: Uint8Array, i: number, length: number): number {
  const b = bytes[i]!;
  if (length === 1) return b;
  let cp = b & (0xff >> (length + 1));
  for (let k = 1; k < length; k++) cp = (cp << 6) | (bytes[i + k]! & 0x3f);
  return cp;
}

function pushUtf8(out: number[], cp: number): void {
  if (cp < 0x80) out.push(cp);
  else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  else if (cp < 0x10000) {
    out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  } else {
    out.push(
      0xf0 | (cp >> 18),
      0x80 | ((cp >> 12) & 0x3f),
      0x80 | ((cp >> 6) & 0x3f),
      0x80 | (cp & 0x3f),
    );
  }
}
