import { deepEqual, equal } from "node:assert/strict";
import { feedbackWords } from "../../src/ranking/feedback.ts";
import { createLexicalRanker } from "../../src/ranking/lexical_ranker.ts";
import { tool } from "../_data.ts";

Deno.test("feedbackWords() prefers words of the best tools that few tools have, never the query's", () => {
  const words = feedbackWords(
    [
      { words: ["send", "email", "smtp", "mail"], score: 3 },
      { words: ["send", "email", "message"], score: 1 },
    ],
    new Set(["send"]),
    (word) => (word === "message" ? 50 : word === "email" ? 5 : 2),
    100,
    3,
    0.5,
  );
  deepEqual([...words.keys()], ["email", "mail", "smtp"]);
  equal(words.get("email"), 0.5);
  deepEqual(feedbackWords([], new Set(), () => 1, 10, 3, 0.5), new Map());
  deepEqual(feedbackWords([{ words: ["a"], score: 1 }], new Set(), () => 1, 10, 0, 0.5), new Map());
});

Deno.test("createLexicalRanker({feedbackDocs}) lifts a tool described in the best match's words", () => {
  const tools = [
    tool("mail", "send_email", "Send an email over SMTP"),
    tool("mail", "smtp_status", "SMTP relay status"),
    tool("web", "status_page", "Page status"),
  ];
  const ranker = createLexicalRanker({ feedbackDocs: 1, feedbackWeight: 1 })(tools, {
    servers: [],
  });
  const plain = createLexicalRanker({ diversity: 0 })(tools, { servers: [] });
  // "email status": without feedback the web page's status comes before the SMTP relay's.
  deepEqual(plain.search("email status", 3).map((hit) => hit.id), [
    "mail/send_email",
    "web/status_page",
    "mail/smtp_status",
  ]);
  equal(ranker.search("email status", 3)[1]?.id, "mail/smtp_status");
});
