import { z } from "zod";
import { lazily } from "./lazy.js";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

function randomChars(count: number): string {
  const bytes = new Uint8Array(count);
  globalThis.crypto.getRandomValues(bytes);
  let out = "";
  for (const byte of bytes) out += CROCKFORD[byte & 31];
  return out;
}

let lastTime = 0;
let counter = 0;

function timeChars(): string {
  // Ten base-32 characters of milliseconds, then a two-character counter, so ids made in
  // the same millisecond (or while the clock steps back) still sort in creation order.
  const now = Date.now();
  if (now > lastTime) {
    lastTime = now;
    counter = 0;
  } else if (++counter > 1023) {
    lastTime++;
    counter = 0;
  }
  let ms = lastTime;
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out + CROCKFORD[(counter >> 5) & 31] + CROCKFORD[counter & 31];
}

/**
 * A new id: `prefix_` then creation time (sortable) and 12 random characters.
 * Ids made later by the same process sort after earlier ones.
 */
export function newId(prefix: string): string {
  return `${prefix}_${timeChars()}${randomChars(12)}`;
}

/**
 * An id's schema, built on first use like the package's other schemas (`lazily`). The brand is
 * its description, registered for the stand-in too, so JSON Schema made from a schema that
 * holds the stand-in still describes the field.
 */
const id = <B extends string>(brand: B) => {
  const schema = lazily(() => z.string().min(1).max(200).describe(brand).brand<B>());
  z.globalRegistry.add(schema, { description: brand });
  return schema;
};

export const SessionId = id("SessionId");
export type SessionId = z.infer<typeof SessionId>;
export const TurnId = id("TurnId");
export type TurnId = z.infer<typeof TurnId>;
export const AgentId = id("AgentId");
export type AgentId = z.infer<typeof AgentId>;
/** Tool call ids come from the provider (`toolu_...`, `call_...`) or are made by the engine. */
export const ToolCallId = id("ToolCallId");
export type ToolCallId = z.infer<typeof ToolCallId>;
export const JobId = id("JobId");
export type JobId = z.infer<typeof JobId>;
/** A check's definition id, `ecosystem:name` or `ecosystem:name@folder` (`npm:test`, `cargo:test@crates/core`). */
export const CheckId = id("CheckId");
export type CheckId = z.infer<typeof CheckId>;
/** One recorded run of a check. */
export const CheckRunId = id("CheckRunId");
export type CheckRunId = z.infer<typeof CheckRunId>;
export const CheckpointId = id("CheckpointId");
export type CheckpointId = z.infer<typeof CheckpointId>;
export const MessageId = id("MessageId");
export type MessageId = z.infer<typeof MessageId>;
export const QuestionId = id("QuestionId");
export type QuestionId = z.infer<typeof QuestionId>;
export const PlanId = id("PlanId");
export type PlanId = z.infer<typeof PlanId>;
export const ApprovalId = id("ApprovalId");
export type ApprovalId = z.infer<typeof ApprovalId>;

/** Generators, one per id kind. Each returns a fresh, time-sortable id. */
export const newSessionId = (): SessionId => newId("ses") as SessionId;
export const newTurnId = (): TurnId => newId("turn") as TurnId;
export const newAgentId = (): AgentId => newId("agent") as AgentId;
export const newToolCallId = (): ToolCallId => newId("call") as ToolCallId;
export const newJobId = (): JobId => newId("job") as JobId;
export const newCheckRunId = (): CheckRunId => newId("run") as CheckRunId;
export const newCheckpointId = (): CheckpointId => newId("ckpt") as CheckpointId;
export const newMessageId = (): MessageId => newId("msg") as MessageId;
export const newQuestionId = (): QuestionId => newId("q") as QuestionId;
export const newPlanId = (): PlanId => newId("plan") as PlanId;
export const newApprovalId = (): ApprovalId => newId("appr") as ApprovalId;

/**
 * The id of a check definition: `ecosystem:name`, with `@folder` when the check does not
 * live at the project root (`npm:test`, `npm:test@packages/api`). Deterministic, so the same
 * check gets the same id in every session.
 */
export function checkId(ecosystem: string, name: string, folder = ""): CheckId {
  const where = folder === "" || folder === "." ? "" : `@${folder}`;
  return `${ecosystem}:${name}${where}` as CheckId;
}
