/**
 * The Gemini API as Gemini CLI calls it (`POST /v1beta/models/MODEL:streamGenerateContent?alt=sse`,
 * `:generateContent`, `:countTokens`), for the scripted model of `_model.ts`. Gemini CLI also asks
 * the model small questions of its own in JSON (who speaks next, which model to route to): those
 * get a JSON answer that says "the user", so that the run ends when the script's does.
 *
 * @module
 */

import { type ModelApi, type ModelTurn, type Reply, sse, textOf } from "./_model.ts";

type Part = Record<string, unknown>;

const METHOD =
  /^\/v1(beta|alpha)?\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)$/;

function read(body: Record<string, unknown>): ModelTurn {
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((entry) => {
    const declarations = (entry as Part).functionDeclarations;
    return Array.isArray(declarations)
      ? declarations.map((d) => ({
        name: String((d as Part).name),
        description: String((d as Part).description ?? ""),
        parameters: (d as Part).parametersJsonSchema ?? (d as Part).parameters,
      }))
      : [];
  });
  const instruction = body.systemInstruction as Part | undefined;
  const system = textOf((instruction?.parts as unknown[] | undefined) ?? instruction ?? "");
  const texts: string[] = [];
  const results: string[] = [];
  const calls: ModelTurn["calls"] = [];
  for (const content of Array.isArray(body.contents) ? body.contents : []) {
    for (const part of ((content as Part).parts as Part[] | undefined) ?? []) {
      if (typeof part.text === "string") texts.push(part.text);
      const call = part.functionCall as Part | undefined;
      if (call !== undefined) calls.push({ name: String(call.name), arguments: call.args });
      const response = part.functionResponse as Part | undefined;
      if (response !== undefined) {
        const text = textOf((response.response as Part | undefined)?.output ?? response.response);
        results.push(text);
        // Gemini answers calls in order: the first call without a result is this one's.
        const open = calls.find((c) => c.name === response.name && c.result === undefined);
        if (open !== undefined) open.result = text;
      }
    }
  }
  return { tools, namespaces: [], system, texts, results, calls };
}

function wantsJson(body: Record<string, unknown>): boolean {
  const config = body.generationConfig as Part | undefined;
  return config?.responseMimeType === "application/json" ||
    config?.responseJsonSchema !== undefined;
}

function answer(reply: Reply, body: Record<string, unknown>, path: string): Response {
  const parts: Part[] = wantsJson(body)
    ? [{
      text: JSON.stringify({ reasoning: "scripted", next_speaker: "user", model_choice: "flash" }),
    }]
    : "text" in reply
    ? [{ text: reply.text }]
    : "call" in reply
    ? [{ functionCall: { name: reply.call.name, args: reply.call.arguments } }]
    : [{ text: "no tool search here" }];
  const chunk = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: "gemini-scripted",
  };
  return path.endsWith(":streamGenerateContent") ? sse([[undefined, chunk]]) : Response.json(chunk);
}

/** The Gemini API. */
export const GEMINI: ModelApi = {
  name: "gemini",
  generates: (method, path) =>
    method === "POST" && METHOD.test(path) && !path.endsWith(":countTokens"),
  read,
  answer,
  other(method, path) {
    if (method === "POST" && METHOD.test(path)) return Response.json({ totalTokens: 1 });
    return undefined;
  },
};
