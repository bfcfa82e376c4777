import {
  cleanServerText,
  type McpElicitation,
  type McpElicitationResult,
} from "@z-engine/integrations";
import { newQuestionId, type Question, type QuestionAnswers } from "@z-engine/protocol";

type Value = string | number | boolean | string[];

/** One property of a requested schema, as the card asks for it and the answer is read back. */
interface Field {
  readonly name: string;
  readonly question: string;
  readonly kind: "string" | "number" | "integer" | "boolean" | "enum" | "multi";
  readonly values: readonly string[];
  readonly fallback: Value | undefined;
}

/** The card's first question: whether to answer at all. */
export const ANSWER = "Answer";
export const DECLINE = "Decline";

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The enum values of a property (`enum`, or SEP-1330's `oneOf`/`anyOf` of `const`s). */
function choices(schema: Record<string, unknown>): string[] {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  const list = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : [];
  return list.flatMap((c) => (isRecord(c) && c.const !== undefined ? [String(c.const)] : []));
}

function fieldOf(name: string, schema: Record<string, unknown>, required: boolean): Field {
  const title = cleanServerText(String(schema.title ?? name), 120);
  const about =
    typeof schema.description === "string" ? `: ${cleanServerText(schema.description, 300)}` : "";
  const question = `${title}${required ? "" : " (optional)"}${about}`;
  const items = isRecord(schema.items) ? schema.items : undefined;
  const values = schema.type === "array" && items ? choices(items) : choices(schema);
  const kind: Field["kind"] =
    schema.type === "array"
      ? "multi"
      : values.length > 0
        ? "enum"
        : schema.type === "boolean"
          ? "boolean"
          : schema.type === "number" || schema.type === "integer"
            ? schema.type
            : "string";
  const fallback = schema.default as Value | undefined;
  return {
    name,
    question,
    kind,
    values: kind === "boolean" ? ["true", "false"] : values,
    fallback,
  };
}

/** The fields of a requested schema, in its order. */
function fieldsOf(schema: Readonly<Record<string, unknown>>): Field[] {
  const props = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(props).flatMap(([name, p]) =>
    isRecord(p) ? [fieldOf(name, p, required.has(name))] : [],
  );
}

/** A field's options on the card: its values, the default first and marked. */
function optionsOf(field: Field): Question["questions"][number]["options"] {
  const shown =
    field.kind === "enum" || field.kind === "multi" || field.kind === "boolean"
      ? [...field.values]
      : [];
  const fallback =
    field.fallback === undefined
      ? undefined
      : Array.isArray(field.fallback)
        ? field.fallback.join(", ")
        : String(field.fallback);
  if (fallback !== undefined && !shown.includes(fallback)) shown.unshift(fallback);
  return shown.map((label) => ({
    label,
    ...(label === fallback ? { description: "default" } : {}),
  }));
}

/**
 * A server's elicitation as a question card for the InteractionPort: first whether to
 * answer (Answer / Decline; dismissing the card cancels), then one question per property of
 * the requested schema, with its enum values (or true/false) as options and its default
 * offered first. Free-text properties take the user's own words. Pure.
 */
export function elicitationQuestion(server: string, request: McpElicitation): Question {
  const message = cleanServerText(request.message, 1000);
  return {
    id: newQuestionId(),
    questions: [
      {
        question: `The MCP server "${server}" asks: ${message}`,
        header: "MCP input",
        options: [
          { label: ANSWER, description: "send the answers below" },
          { label: DECLINE, description: "tell the server no" },
        ],
        multiSelect: false,
      },
      ...fieldsOf(request.requestedSchema).map((f) => ({
        question: f.question,
        header: f.name.slice(0, 12),
        options: optionsOf(f),
        multiSelect: f.kind === "multi",
      })),
    ],
  };
}

/** One answer text as the property's type, or undefined when it does not fit. */
function typedValue(field: Field, text: string): Value | undefined {
  const t = text.trim();
  switch (field.kind) {
    case "number":
    case "integer": {
      const n = Number(t);
      return t !== "" && Number.isFinite(n) && (field.kind === "number" || Number.isInteger(n))
        ? n
        : undefined;
    }
    case "boolean":
      return /^(true|yes|y)$/i.test(t) ? true : /^(false|no|n)$/i.test(t) ? false : undefined;
    case "enum":
      return field.values.includes(t) ? t : undefined;
    case "multi":
      return t
        .split(",")
        .map((v) => v.trim())
        .filter((v) => field.values.includes(v));
    default:
      return t;
  }
}

/**
 * The card's answers as the elicitation's result: dismissed (null) is `cancel`, Decline is
 * `decline`, anything else `accept` with each answered property in its type. A property left
 * empty, or answered with something its type cannot take, is left out, so the server's
 * schema default applies (SEP-1034: the client fills defaults in). Pure.
 */
export function elicitationAnswer(
  request: McpElicitation,
  question: Question,
  answers: QuestionAnswers | null,
): McpElicitationResult {
  if (answers === null) return { action: "cancel" };
  if (answers[question.questions[0]?.question ?? ""] === DECLINE) return { action: "decline" };
  const content: Record<string, Value> = {};
  for (const field of fieldsOf(request.requestedSchema)) {
    const text = answers[field.question];
    if (text === undefined || text.trim() === "") continue;
    const value = typedValue(field, text);
    if (value !== undefined) content[field.name] = value;
  }
  return { action: "accept", content };
}
