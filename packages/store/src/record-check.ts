import { STORE_FORMAT_VERSION, type LogRecord, type LogRecordKind } from "./records.js";

// A cheap structural check of the fields replay relies on, per kind. Running the full zod
// schema over every line of a 100 MB log costs more than parsing it; this costs little and
// still reports a known kind that lacks its required fields. `LogRecord.safeParse` remains
// the full check (tests hold the two in agreement on the required fields).

type Obj = Record<string, unknown>;
type Check = (r: Obj) => string | null;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (r: Obj, k: string) => (typeof r[k] === "string" ? null : `${k} must be a string`);
const num = (r: Obj, k: string) => (typeof r[k] === "number" ? null : `${k} must be a number`);
const bool = (r: Obj, k: string) => (typeof r[k] === "boolean" ? null : `${k} must be a boolean`);
const arr = (r: Obj, k: string) => (Array.isArray(r[k]) ? null : `${k} must be an array`);
const obj = (r: Obj, k: string) => (isObj(r[k]) ? null : `${k} must be an object`);
const all =
  (...checks: Check[]): Check =>
  (r) => {
    for (const check of checks) {
      const problem = check(r);
      if (problem !== null) return problem;
    }
    return null;
  };
const s =
  (k: string): Check =>
  (r) =>
    str(r, k);
const n =
  (k: string): Check =>
  (r) =>
    num(r, k);
const b =
  (k: string): Check =>
  (r) =>
    bool(r, k);
const a =
  (k: string): Check =>
  (r) =>
    arr(r, k);
const o =
  (k: string): Check =>
  (r) =>
    obj(r, k);
const inside =
  (k: string, check: Check): Check =>
  (r) => {
    const inner = r[k];
    if (!isObj(inner)) return `${k} must be an object`;
    const problem = check(inner);
    return problem === null ? null : `${k}.${problem}`;
  };

// Built once: a check runs for every block of every message of the log.
const checkToolUse = all(s("id"), s("name"));
const checkToolResult = all(s("toolUseId"), a("content"));

function checkBlock(block: unknown): string | null {
  if (!isObj(block) || typeof block.type !== "string") return "a content block lacks its type";
  if (block.type === "toolUse") return checkToolUse(block);
  if (block.type === "toolResult") return checkToolResult(block);
  if (block.type === "text") return str(block, "text");
  return null;
}

/** Checks a protocol Message: id, role and content blocks with their types. */
export const checkMessage: Check = (m) => {
  if (typeof m.id !== "string") return "id must be a string";
  if (m.role !== "user" && m.role !== "assistant") return "role must be user or assistant";
  const content = m.content;
  if (!Array.isArray(content)) return "content must be an array";
  for (const block of content) {
    const problem = checkBlock(block);
    if (problem !== null) return `content: ${problem}`;
  }
  return null;
};

const usage = all(n("input"), n("output"), n("cacheRead"), n("cacheWrite"), n("costUsd"));

const checkTaskViewFields = all(a("keptMessageIds"), inside("indexMessage", checkMessage));
const checkTaskView: Check = (r) => (r.restored === true ? null : checkTaskViewFields(r));

const CHECKS: Record<LogRecordKind, Check> = {
  session: all(s("sessionId"), (r) => (r.projectRoot === null ? null : str(r, "projectRoot"))),
  message: inside("message", checkMessage),
  turnStarted: all(s("turnId"), s("userMessageId"), s("prompt")),
  turnEnded: all(s("turnId"), s("outcome"), inside("usage", usage), o("badge"), n("durationMs")),
  toolFinished: all(
    s("toolCallId"),
    s("toolName"),
    s("status"),
    n("durationMs"),
    a("writtenPaths"),
  ),
  todos: a("todos"),
  planProposed: inside("plan", all(s("id"), s("plan"))),
  planResolved: all(s("planId"), b("approved"), b("dismissed")),
  questionAsked: inside("question", all(s("id"), a("questions"))),
  questionAnswered: all(s("questionId"), o("answers"), b("dismissed")),
  approvalRequested: all(s("approvalId"), s("toolCallId"), s("toolName"), s("title"), s("reason")),
  approvalResolved: all(s("approvalId"), s("toolCallId"), o("decision"), s("by")),
  agentStarted: all(s("agentId"), s("agentType"), s("description"), b("background")),
  agentFinished: all(s("agentId"), s("status")),
  check: inside("record", all(s("runId"), s("checkId"), b("passed"))),
  checkpoint: inside("checkpoint", all(s("id"), s("turnId"), s("messageId"), s("commit"))),
  compaction: inside(
    "compaction",
    all(inside("summary", checkMessage), a("droppedMessageIds"), s("trigger")),
  ),
  toolResultsCleared: inside("clearing", a("calls")),
  rewind: all(s("messageId"), s("restore"), a("restoredPaths"), a("unstorable")),
  mode: s("mode"),
  model: s("model"),
  effort: s("effort"),
  title: s("title"),
  usage: inside("usage", usage),
  trust: all(s("projectRoot"), a("withheld"), s("decision")),
  notice: all(s("level"), s("code"), s("message")),
  taskView: checkTaskView,
  resumePoint: all(
    a("base"),
    (r) => (r.view === null ? null : arr(r, "view")),
    inside("state", all(n("messageCount"), n("turnCount"))),
    inside("totalUsage", usage),
  ),
};

/** The outcome of checking one parsed line. */
export type RecordCheck =
  | { readonly status: "ok"; readonly record: LogRecord }
  | { readonly status: "unknown"; readonly kind: string }
  | { readonly status: "damaged"; readonly reason: string };

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Checks a parsed JSON value as a log record: `ok` for a known kind with its required fields,
 * `unknown` for a kind this version does not know (or a newer format version), `damaged`
 * otherwise. Never throws.
 */
export function checkRecord(value: unknown): RecordCheck {
  if (!isObj(value)) return { status: "damaged", reason: "not a JSON object" };
  const kind = value.kind;
  if (typeof kind !== "string") return { status: "damaged", reason: "kind is missing" };
  const v = value.v;
  if (typeof v !== "number") return { status: "damaged", reason: "v is missing" };
  if (v > STORE_FORMAT_VERSION || !hasOwn.call(CHECKS, kind)) return { status: "unknown", kind };
  if (v !== STORE_FORMAT_VERSION) return { status: "damaged", reason: `unsupported v ${v}` };
  if (typeof value.ts !== "number") return { status: "damaged", reason: "ts must be a number" };
  const problem = CHECKS[kind as LogRecordKind](value);
  if (problem !== null) return { status: "damaged", reason: `${kind}: ${problem}` };
  return { status: "ok", record: value as LogRecord };
}
