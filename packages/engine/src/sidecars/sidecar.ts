import { MessageAssembler, type ModelClient } from "@z-engine/protocol";
import type { z } from "zod";

/** The decision model as a sidecar: one short request to the fast model, answered in JSON. */
export interface Sidecar {
  /**
   * Asks `question` under `instructions` and parses the reply's first JSON object with
   * `schema`. Resolves to undefined (abstain) on any failure: a model error, no JSON, a
   * reply the schema rejects, or `signal` aborting. Never rejects.
   */
  ask<T>(
    instructions: string,
    question: string,
    schema: z.ZodType<T>,
    signal: AbortSignal,
  ): Promise<T | undefined>;
}

/** The largest question sent to the decision model, in characters. */
export const MAX_QUESTION = 8_000;

/** The first balanced `{...}` of `text`, parsed; undefined when there is none. */
export function firstJsonObject(text: string): unknown {
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      try {
        return JSON.parse(text.slice(start, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * A sidecar over the engine's fast model (`role: "fast"` of the client factory). `client`
 * is asked per question, so a settings reload that changes the fast model applies.
 */
export function createSidecar(client: () => { client: ModelClient; model: string }): Sidecar {
  return {
    async ask(instructions, question, schema, signal) {
      if (signal.aborted) return undefined;
      try {
        const { client: c, model } = client();
        const request = {
          model,
          system: [{ id: "base", text: instructions, cacheable: false }],
          tools: [],
          messages: [
            {
              role: "user" as const,
              content: [{ type: "text" as const, text: question.slice(0, MAX_QUESTION) }],
            },
          ],
          cacheMarks: [],
          maxTokens: 256,
        };
        const assembler = new MessageAssembler();
        for await (const event of c.stream(request, { signal })) assembler.push(event);
        if (assembler.error || signal.aborted) return undefined;
        const text = assembler.content.map((b) => (b.type === "text" ? b.text : "")).join("");
        const parsed = schema.safeParse(firstJsonObject(text));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
