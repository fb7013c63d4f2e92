/**
 * The size of text being assembled line by line: Unicode code points (what the default token
 * estimate counts) and UTF-8 bytes (what a response costs), without joining the lines first.
 *
 * @module
 */

// deno-lint-ignore no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A running total of code points and UTF-8 bytes.
 *
 * @example Usage
 * ```ts
 * import { TextSize } from "./text_size.ts";
 * import { equal } from "node:assert/strict";
 *
 * const size = new TextSize();
 * size.add("a\u00e9😀");
 * equal(size.codePoints, 3);
 * equal(size.bytes, 1 + 2 + 4);
 * ```
 */
export class TextSize {
  /** Code points so far (a surrogate pair is one; a lone surrogate is one). */
  codePoints = 0;
  /** UTF-8 bytes so far (a lone surrogate counts as U+FFFD, 3 bytes, as `TextEncoder` writes it). */
  bytes = 0;

  /** Adds a line break. */
  newline(): void {
    this.codePoints++;
    this.bytes++;
  }

  /**
   * Adds ASCII text by its length alone.
   *
   * @param length Its length.
   */
  addAscii(length: number): void {
    this.codePoints += length;
    this.bytes += length;
  }

  /**
   * Adds a text.
   *
   * @param text The text.
   */
  add(text: string): void {
    if (!NON_ASCII.test(text)) {
      this.codePoints += text.length;
      this.bytes += text.length;
      return;
    }
    let points = 0;
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      points++;
      if (unit < 0x80) bytes += 1;
      else if (unit < 0x800) bytes += 2;
      else if (unit >= 0xd800 && unit <= 0xdbff) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          bytes += 4;
          i++;
        } else bytes += 3;
      } else bytes += 3;
    }
    this.codePoints += points;
    this.bytes += bytes;
  }
}
