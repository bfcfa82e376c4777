import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DocAnswer, ProjectDoc } from "../seams.js";
import type { DecisionUse } from "../use.js";

/** The documents' paragraphs shown to the model, in characters. */
const DOCS_BUDGET = 6_000;
/** A quote shorter than this backs nothing. */
const MIN_QUOTE = 12;

const Answers = lazily(() =>
  z.object({
    answers: z
      .array(
        z.object({
          question: z.string(),
          answer: z.string().nullable(),
          source: z.string().default(""),
          quote: z.string().default(""),
        }),
      )
      .max(8),
  }),
);

const INSTRUCTIONS =
  'A coding agent wants to ask the user the multiple-choice questions below. Answer a question only when the project documents below settle it; otherwise give null. For each question reply with the chosen option\'s label exactly, the document\'s path, and the sentence of the document that settles it, copied exactly. Reply with JSON only: {"answers": [{"question": "<the question>", "answer": "<label>" or null, "source": "<path>", "quote": "<copied sentence>"}]}.';

const words = (text: string) =>
  new Set((text.toLowerCase().match(/[a-z0-9_-]{4,}/g) ?? []).filter((w) => w.length < 40));
const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/** The documents' paragraphs that share the most words with `about`, within DOCS_BUDGET. */
export function docExcerpts(docs: readonly ProjectDoc[], about: string): string {
  const wanted = words(about);
  const paragraphs = docs.flatMap((d) =>
    d.text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter((p) => p.length > 0)
      .map((p) => ({ path: d.path, text: p.slice(0, 1_500) })),
  );
  const scored = paragraphs
    .map((p, order) => ({
      ...p,
      order,
      score: [...words(p.text)].filter((w) => wanted.has(w)).length,
    }))
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const out: string[] = [];
  let size = 0;
  for (const p of scored) {
    const text = `[${p.path}]\n${p.text}`;
    if (size + text.length > DOCS_BUDGET) continue;
    out.push(text);
    size += text.length + 2;
  }
  return out.join("\n\n");
}

/**
 * ask_user (seam: ask user): before an AskUserQuestion reaches the user, the fast model
 * answers its questions from the project's documents. It advises only when every question
 * gets one of its own choices, from a document offered, backed by a quote found in that
 * document word for word; anything else abstains, and the user is asked as with Off.
 */
export const askUser: DecisionUse<"askUser"> = {
  name: "ask_user",
  seam: "askUser",
  module: "uses/ask-user.ts",
  async decide(input, ctx) {
    if (input.questions.length === 0 || input.docs.length === 0) return undefined;
    const asked = input.questions
      .map((q, i) => `${i + 1}. ${q.question}\n   Options: ${q.options.join(" | ")}`)
      .join("\n");
    const excerpts = docExcerpts(input.docs, asked);
    if (!excerpts) return undefined;
    const question = `Questions:\n${asked}\n\nProject documents:\n${excerpts}`;
    const reply = await ctx.sidecar.ask(INSTRUCTIONS, question, Answers, ctx.signal);
    if (!reply) return undefined;
    const answers: DocAnswer[] = [];
    for (const q of input.questions) {
      const a = reply.answers.find((x) => squash(x.question) === squash(q.question));
      const doc = input.docs.find((d) => d.path === a?.source);
      const quote = squash(a?.quote ?? "");
      if (!a?.answer || !doc || !q.options.includes(a.answer)) return undefined;
      if (quote.length < MIN_QUOTE || !squash(doc.text).includes(quote)) return undefined;
      answers.push({ question: q.question, answer: a.answer, source: doc.path, quote });
    }
    return { answers };
  },
  describe: (advice) => `${advice.answers.length} answer(s) from the docs`,
};
