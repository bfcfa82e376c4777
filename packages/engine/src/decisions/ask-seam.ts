import { join } from "node:path";
import { lazily, type ProjectFileReader, type TurnId } from "@z-engine/protocol";
import { textOutput, type ToolOutput } from "@z-engine/tools";
import { z } from "zod";
import type { SessionCore } from "../core/session-core.js";
import type { ProjectDoc } from "./seams.js";
import { type DecisionHost, decisionsOf } from "./session-hub.js";

/** The project's documents the ask-user seam offers: these files, then docs/*.md. */
const ROOT_DOCS = ["AGENTS.md", "CLAUDE.md", "README.md", "CONTRIBUTING.md"];
const MAX_DOCS_FOLDER = 8;
const MAX_DOC_CHARS = 32_000;

/** The part of AskUserQuestion's input the seam reads. */
const AskInput = lazily(() =>
  z.object({
    questions: z.array(
      z.object({
        question: z.string(),
        options: z.array(z.object({ label: z.string() })),
        multiSelect: z.boolean().optional(),
      }),
    ),
  }),
);

/**
 * The project's documents (ROOT_DOCS, then up to eight docs/*.md), read through the project's
 * door (real paths inside the project, regular files, the Read rules); what it refuses is
 * skipped, and each document is cut to MAX_DOC_CHARS.
 */
export async function readProjectDocs(
  files: ProjectFileReader,
  root: string,
): Promise<ProjectDoc[]> {
  const inDocs = (await files.list(join(root, "docs"))) ?? [];
  const paths = [
    ...ROOT_DOCS,
    ...inDocs
      .filter((e) => (e.kind === "file" || e.kind === "link") && e.name.endsWith(".md"))
      .map((e) => e.name)
      .slice(0, MAX_DOCS_FOLDER)
      .map((f) => `docs/${f}`),
  ];
  const docs = await Promise.all(
    paths.map(async (path) => {
      // A character is at most four bytes: enough for MAX_DOC_CHARS, and no more.
      const read = await files.readText(join(root, path), {
        maxBytes: MAX_DOC_CHARS * 4,
        cut: true,
      });
      return read.ok && read.text ? { path, text: read.text.slice(0, MAX_DOC_CHARS) } : undefined;
    }),
  );
  return docs.filter((d): d is ProjectDoc => d !== undefined);
}

/**
 * The ask-user seam, where an AskUserQuestion call would ask: when a use answers every
 * question from the project's documents, that answer is the call's result and the user is
 * not asked. Only a trusted project's documents count: an untrusted project's README could
 * otherwise answer for the user. Multi-select questions, other tools, untrusted projects and
 * sessions without documents go on to the user as with Off. Resolves to undefined to ask as
 * usual; never rejects.
 */
export async function answerFromDocs(
  core: DecisionHost & Pick<SessionCore, "projectRoot" | "trusted" | "doors">,
  call: { readonly tool: { readonly name: string }; readonly input: unknown },
  scope: { readonly signal: AbortSignal; readonly turnId: TurnId },
): Promise<(ToolOutput & { readonly thrown?: string }) | undefined> {
  if (call.tool.name !== "AskUserQuestion") return undefined;
  const hub = decisionsOf(core);
  if (!hub.joins("askUser")) return undefined;
  const parsed = AskInput.safeParse(call.input);
  if (!parsed.success || parsed.data.questions.some((q) => q.multiSelect)) return undefined;
  if (!core.trusted) return undefined;
  const docs = await readProjectDocs(core.doors.project, core.projectRoot);
  if (docs.length === 0) return undefined;
  const questions = parsed.data.questions.map((q) => ({
    question: q.question,
    options: q.options.map((o) => o.label),
  }));
  const [advice] = await hub.consult("askUser", { questions, docs }, scope);
  if (!advice || scope.signal.aborted) return undefined;
  const lines = advice.answers.map(
    (a) => `"${a.question}" = "${a.answer}" (${a.source}: "${a.quote}")`,
  );
  return textOutput(
    `The user was not asked: the project's documents answer these questions.\n${lines.join("\n")}\nContinue with these answers in mind; ask the user only about what the documents do not settle.`,
  );
}
