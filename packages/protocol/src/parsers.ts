import { Badge, CheckDefinition, CheckRecord } from "./check.js";
import { ContentBlock, Message } from "./content.js";
import { ToolDisplay } from "./display.js";
import { ModelEvent, ModelRequest } from "./model.js";
import { type ParseResult, parseWith } from "./parse.js";
import { ApprovalDecision } from "./records.js";
import { Compaction, ToolResultClearing } from "./working-set.js";

/** Parses one content block. Never throws. */
export const parseContentBlock = (value: unknown): ParseResult<ContentBlock> =>
  parseWith(ContentBlock, value);
/** Parses one transcript message. Never throws. */
export const parseMessage = (value: unknown): ParseResult<Message> => parseWith(Message, value);
/** Parses one model stream event. Never throws. */
export const parseModelEvent = (value: unknown): ParseResult<ModelEvent> =>
  parseWith(ModelEvent, value);
/** Parses a model request. Never throws. */
export const parseModelRequest = (value: unknown): ParseResult<ModelRequest> =>
  parseWith(ModelRequest, value);
/** Parses an approval decision. Never throws. */
export const parseApprovalDecision = (value: unknown): ParseResult<ApprovalDecision> =>
  parseWith(ApprovalDecision, value);
/** Parses a tool display payload. Never throws. */
export const parseToolDisplay = (value: unknown): ParseResult<ToolDisplay> =>
  parseWith(ToolDisplay, value);
/** Parses a check definition. Never throws. */
export const parseCheckDefinition = (value: unknown): ParseResult<CheckDefinition> =>
  parseWith(CheckDefinition, value);
/** Parses a check record. Never throws. */
export const parseCheckRecord = (value: unknown): ParseResult<CheckRecord> =>
  parseWith(CheckRecord, value);
/** Parses a badge. Never throws. */
export const parseBadge = (value: unknown): ParseResult<Badge> => parseWith(Badge, value);
/** Parses the record of cleared tool results. Never throws. */
export const parseToolResultClearing = (value: unknown): ParseResult<ToolResultClearing> =>
  parseWith(ToolResultClearing, value);
/** Parses the record of a compaction. Never throws. */
export const parseCompaction = (value: unknown): ParseResult<Compaction> =>
  parseWith(Compaction, value);
