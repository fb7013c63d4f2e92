/**
 * The limits that keep every path over hostile input bounded (DESIGN §4): one place for each, so
 * code, errors and the README's list all say the same. Each limit's error names it.
 *
 * @module
 */

/**
 * The longest tool name or server name, in UTF-16 code units: MCP's limit on tool names (1–128
 * characters), applied to server names too. A catalogue with a longer one is refused, so no id is
 * longer than 257 characters and no lookup, suggestion or session record grows with a name.
 */
export const MAX_NAME_CHARS = 128;

/**
 * The deepest nesting of a tool's JSON fields (`inputSchema`, `outputSchema`, `annotations`,
 * `_meta`, any other field) and of an execute's `arguments`: 64 levels of objects and arrays.
 * Deeper is refused (`invalid_catalog`, `invalid_arguments`), so no walk over them can overflow.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The most units of work one argument check may take: one per subschema visit and per error it
 * hands back, one per character a pattern or format reads, one per `PATTERN_STEPS_PER_UNIT` steps
 * of the pattern engine, one per `enum` member compared, one per `uniqueItems` member. Past it the
 * call is refused (`invalid_arguments`): validation fails closed.
 */
export const MAX_VALIDATION_STEPS = 50_000;

/**
 * The pattern engine's steps (one live thread at one position of the text) that make one unit of
 * `MAX_VALIDATION_STEPS`: a pattern of a few thousand instructions keeps as many threads alive on
 * every character, so the characters it reads alone do not measure its work (some 50 ns a step:
 * the limit bounds a check's patterns to about 1,000,000 steps, some 50 ms).
 */
export const PATTERN_STEPS_PER_UNIT = 20;

/**
 * The longest string a `format` check (`email`, `uri`, `date-time`, ...) reads: a longer string
 * with a format fails it (`invalid_arguments`). The format expressions run in linear time, but
 * some read each character slowly (about a microsecond for `url`).
 */
export const MAX_FORMAT_CHARS = 4_096;

/**
 * The deepest nesting of subschema visits in one argument check (instance depth times the
 * schema's own nesting and `$ref` hops). Past it the call is refused (`invalid_arguments`).
 */
export const MAX_VALIDATION_DEPTH = 512;

/**
 * The most catalogue ids compared by edit distance when suggesting ids for an unknown name,
 * after the length and shared-trigram filters.
 */
export const MAX_SUGGESTION_COMPARISONS = 256;

/**
 * The most edits a suggested id may be from the name the model sent: `max(2, length / 4)`, and
 * never more than this, so each comparison stays within a narrow band.
 */
export const MAX_SUGGESTION_DISTANCE = 8;

/**
 * The most instructions of the linear-time engine's programs that one argument check may reach:
 * each distinct `pattern` or `patternProperties` key its arguments meet is charged its program's
 * size once (`x{1,1000}` is about 2,000 instructions, some 0.4 ms to compile; a compiled program is
 * cached by its source, but charged all the same, so an outcome never depends on what ran
 * before). Past it the call is refused (`invalid_arguments`): validation fails closed. A catalogue
 * may hold any number of patterns: none is compiled when it is built, and none is left unchecked
 * for coming after others. It bounds one call's compiling to some 20 ms.
 */
export const MAX_PATTERN_UNITS = 100_000;

/**
 * The most bytes a session's state may take as JSON (UTF-8). A describe or execute that would grow
 * it further makes the session forget the schemas it sent longest ago (the model is sent them again
 * if it asks), so a session never dead-ends.
 */
export const MAX_SESSION_BYTES = 64 * 1024;

/**
 * The longest search query, in code points: a task an agent pastes as it was given is ranked,
 * never refused for its length, up to this; a longer one is refused with a clear error (the
 * bridge's `invalid_arguments`, the HTTP API's `invalid_request`). The default of every face
 * (`ProgressiveConfig.maxQueryChars`, `UNFOLD_MAX_QUERY_CHARS`); the ranker's work on a query is
 * bounded by its own limit on distinct words (`queryTermLimit`), whatever its length.
 */
export const MAX_QUERY_CHARS = 8_000;

/**
 * The most bytes of cut answers one session keeps for `more` (two bytes per code unit of their
 * text, as `keptBytes` counts them): 32 MiB, room for the largest result an upstream may send
 * the gateway (10 MiB) or the HTTP API's largest body (16 MiB). Past it the session lets go of
 * its oldest kept answers; a single answer over it is not kept, and its marker says so.
 */
export const MAX_KEPT_BYTES_PER_SESSION = 32 * 1024 * 1024;

/** The most cut answers one session keeps for `more`; past it the oldest is let go. */
export const MAX_KEPT_ANSWERS_PER_SESSION = 64;

/**
 * The most bytes of cut answers the in-memory session store keeps across all its sessions:
 * 256 MiB; past it the oldest kept answer of any session is let go.
 */
export const MAX_KEPT_BYTES = 256 * 1024 * 1024;
