import { deepEqual, equal, throws } from "node:assert/strict";
import { DEFAULT_SETTINGS, settingsFromEnv } from "../../src/http/settings.ts";
import { MAX_QUERY_CHARS } from "../../src/limits.ts";

Deno.test("settingsFromEnv() keeps the defaults of DESIGN.md for unset or empty variables", () => {
  deepEqual(settingsFromEnv({}), DEFAULT_SETTINGS);
  deepEqual(settingsFromEnv({ UNFOLD_MAX_TOOLS: "", UNFOLD_API_TOKEN: "" }), DEFAULT_SETTINGS);
  equal(DEFAULT_SETTINGS.maxBodyBytes, 16 * 1024 * 1024);
  equal(DEFAULT_SETTINGS.maxTools, 10_000);
  equal(DEFAULT_SETTINGS.maxQueryChars, MAX_QUERY_CHARS);
  equal(DEFAULT_SETTINGS.maxDescriptionChars, 4000);
  equal(DEFAULT_SETTINGS.sessionTtlSeconds, 86_400);
});

Deno.test("settingsFromEnv() reads every variable", () => {
  const s = settingsFromEnv({
    UNFOLD_API_TOKEN: " a ,b,, ",
    UNFOLD_ALLOWED_ORIGINS: "https://APP.example:443/, http://localhost:3000",
    UNFOLD_MAX_BODY_BYTES: "1000",
    UNFOLD_MAX_TOOLS: "5",
    UNFOLD_MAX_QUERY_CHARS: "50",
    UNFOLD_MAX_DESCRIPTION_CHARS: "60",
    UNFOLD_SESSION_TTL_SECONDS: "70",
    UNFOLD_MAX_SESSIONS: "80",
    UNFOLD_MAX_KEPT_BYTES: "90",
  });
  deepEqual(s, {
    tokens: ["a", "b"],
    allowedOrigins: ["https://app.example", "http://localhost:3000"],
    maxBodyBytes: 1000,
    maxTools: 5,
    maxQueryChars: 50,
    maxDescriptionChars: 60,
    sessionTtlSeconds: 70,
    maxSessions: 80,
    maxKeptBytes: 90,
  });
});

Deno.test("settingsFromEnv() rejects a number variable that is not a positive integer", () => {
  for (const value of ["0", "-1", "1.5", "lots"]) {
    throws(() => settingsFromEnv({ UNFOLD_MAX_TOOLS: value }), /UNFOLD_MAX_TOOLS/);
  }
});

Deno.test("settingsFromEnv() rejects an allowed origin that is not scheme://host[:port]", () => {
  deepEqual(settingsFromEnv({ UNFOLD_ALLOWED_ORIGINS: "*" }).allowedOrigins, ["*"]);
  for (
    const value of [
      "app.example",
      "https://app.example/path",
      "https://u:p@app.example",
      "null",
      "https://a.example?x",
    ]
  ) {
    throws(
      () => settingsFromEnv({ UNFOLD_ALLOWED_ORIGINS: value }),
      /^RangeError: Invalid UNFOLD_ALLOWED_ORIGINS: ".*" is not an origin such as "https:\/\/app\.example\.com" \(or "\*"\)$/,
    );
  }
});
