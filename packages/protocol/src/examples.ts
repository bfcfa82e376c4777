import type { CheckRecord } from "./check.js";
import type { EngineCommand, EngineCommandType } from "./commands.js";
import type { Message } from "./content.js";
import type { EngineEvent, EngineEventType } from "./events.js";
import type {
  AgentId,
  ApprovalId,
  CheckId,
  CheckRunId,
  CheckpointId,
  JobId,
  MessageId,
  PlanId,
  QuestionId,
  ToolCallId,
  TurnId,
} from "./ids.js";
import type { Usage } from "./usage.js";

// One valid example of every command and event, used by the round-trip tests and by hosts
// that want sample payloads. Typed so that a new command or event type without an example
// fails to compile.

const turnId = "turn_01" as TurnId;
const messageId = "msg_01" as MessageId;
const toolCallId = "toolu_01" as ToolCallId;
const approvalId = "appr_01" as ApprovalId;
const questionId = "q_01" as QuestionId;
const planId = "plan_01" as PlanId;
const jobId = "job_01" as JobId;
const agentId = "agent_01" as AgentId;
const usage: Usage = { input: 1200, output: 300, cacheRead: 800, cacheWrite: 100, costUsd: 0.0123 };
const badge = {
  status: "verified" as const,
  reason: "npm:test passed after the last change",
  checks: ["npm:test" as CheckId],
};
const message: Message = {
  id: messageId,
  role: "assistant",
  content: [
    { type: "thinking", thinking: "Look at the test.", signature: "sig" },
    { type: "text", text: "Running the tests." },
    { type: "toolUse", id: toolCallId, name: "Verify", input: { checks: ["npm:test"] } },
  ],
};
const record: CheckRecord = {
  runId: "run_01" as CheckRunId,
  checkId: "npm:test" as CheckId,
  kind: "test",
  command: "npm test",
  cwd: ".",
  exitCode: 1,
  passed: false,
  counts: { passed: 4, failed: 1, skipped: 0 },
  startedAt: 1_700_000_000_000,
  durationMs: 1234,
  outputTail: "1 failed",
  output: {
    ref: "artifact:check-npm-test.log",
    name: "check-npm-test.log",
    bytes: 2048,
    mediaType: "text/plain",
    truncated: false,
  },
  fingerprintBefore: "a1b2",
  fingerprintAfter: "a1b2",
};

/** One example of each command. */
export const COMMAND_EXAMPLES: { [T in EngineCommandType]: Extract<EngineCommand, { type: T }> } = {
  submit: { type: "submit", text: "The login test fails. Please fix it." },
  steer: { type: "steer", text: "Also check the token expiry." },
  cancel: { type: "cancel" },
  interrupt: { type: "interrupt" },
  resolveApproval: {
    type: "resolveApproval",
    approvalId,
    decision: { type: "allowSession", rule: "Bash(npm test:*)" },
  },
  answerQuestion: {
    type: "answerQuestion",
    questionId,
    answers: { "Which database?": "Postgres" },
  },
  resolvePlan: { type: "resolvePlan", planId, approved: true, mode: "acceptEdits" },
  setMode: { type: "setMode", mode: "plan" },
  setModel: { type: "setModel", model: "claude-sonnet-4-5" },
  setEffort: { type: "setEffort", effort: "high" },
  rewind: { type: "rewind", messageId, restore: "both" },
  trustWorkspace: { type: "trustWorkspace", trusted: true },
  killJob: { type: "killJob", jobId },
  stopAgent: { type: "stopAgent", agentId },
  runCommand: { type: "runCommand", name: "fix-issue", args: "123" },
  includeFullHistory: { type: "includeFullHistory" },
  resolveSuggestion: { type: "resolveSuggestion", suggestionId: "sg-1", accepted: true },
};

/** One example of each event. */
export const EVENT_EXAMPLES: { [T in EngineEventType]: Extract<EngineEvent, { type: T }> } = {
  turnStarted: { type: "turnStarted", turnId, userMessageId: messageId, prompt: "Fix the test" },
  assistantStarted: {
    type: "assistantStarted",
    messageId,
    model: "claude-sonnet-4-5",
    contextWindow: 200_000,
  },
  textDelta: { type: "textDelta", messageId, text: "Run" },
  thinkingDelta: { type: "thinkingDelta", messageId, text: "Hmm" },
  assistantFinished: { type: "assistantFinished", message, usage, stopReason: "toolUse" },
  toolStarted: {
    type: "toolStarted",
    toolCallId,
    toolName: "Edit",
    input: { file_path: "src/a.ts" },
    title: "Edit src/a.ts",
  },
  toolProgress: { type: "toolProgress", toolCallId, text: "PASS src/a.test.ts\n" },
  toolFinished: {
    type: "toolFinished",
    toolCallId,
    toolName: "Edit",
    status: "ok",
    display: {
      kind: "diff",
      path: "src/a.ts",
      diff: "@@ -1 +1 @@\n-a\n+b\n",
      added: 1,
      removed: 1,
    },
    durationMs: 12,
    writtenPaths: ["src/a.ts"],
  },
  approvalRequested: {
    type: "approvalRequested",
    approvalId,
    toolCallId,
    toolName: "Verify",
    title: "Run npm test",
    reason: "npm test is not read-only",
    preview: { kind: "command", command: "npm test", cwd: "." },
    suggestedRules: ["Bash(npm test:*)"],
  },
  approvalResolved: {
    type: "approvalResolved",
    approvalId,
    toolCallId,
    decision: { type: "allowOnce" },
    by: "user",
  },
  questionAsked: {
    type: "questionAsked",
    question: {
      id: questionId,
      questions: [
        {
          question: "Which database?",
          header: "DB",
          options: [{ label: "Postgres" }, { label: "SQLite" }],
          multiSelect: false,
        },
      ],
    },
  },
  questionAnswered: {
    type: "questionAnswered",
    questionId,
    answers: { "Which database?": "Postgres" },
    dismissed: false,
  },
  planProposed: { type: "planProposed", plan: { id: planId, plan: "1. Read\n2. Fix" } },
  planResolved: {
    type: "planResolved",
    planId,
    approved: false,
    feedback: "Smaller steps",
    dismissed: false,
  },
  todosUpdated: {
    type: "todosUpdated",
    todos: [{ content: "Fix the test", status: "in_progress", activeForm: "Fixing the test" }],
  },
  retrying: {
    type: "retrying",
    attempt: 2,
    maxAttempts: 5,
    delayMs: 1000,
    reason: "overloaded",
    message: "529 Overloaded",
  },
  compactionStarted: { type: "compactionStarted", trigger: "auto" },
  compacted: {
    type: "compacted",
    marker: {
      summaryMessageId: messageId,
      droppedMessages: 40,
      tokensBefore: 150_000,
      tokensAfter: 20_000,
    },
  },
  notice: {
    type: "notice",
    level: "warning",
    code: "sandbox.unavailable",
    message: "bubblewrap is not installed",
  },
  checkRecorded: { type: "checkRecorded", record },
  verificationChanged: { type: "verificationChanged", badge },
  turnFinished: {
    type: "turnFinished",
    turnId,
    outcome: "completed",
    usage,
    badge,
    durationMs: 5400,
  },
  trustRequired: {
    type: "trustRequired",
    projectRoot: "/home/u/project",
    withheld: ["hooks", "permissions.allow"],
  },
  jobUpdated: {
    type: "jobUpdated",
    job: {
      id: jobId,
      kind: "shell",
      description: "npm run dev",
      status: "running",
      exitCode: null,
      startedAt: 1_700_000_000_000,
    },
  },
  checkpointCreated: {
    type: "checkpointCreated",
    checkpoint: {
      id: "ckpt_01" as CheckpointId,
      turnId,
      messageId,
      createdAt: 1_700_000_000_000,
      commit: "0123456789abcdef0123456789abcdef01234567",
      files: 42,
      unstorable: [],
    },
  },
  rewound: {
    type: "rewound",
    messageId,
    restore: "code",
    restoredPaths: ["src/a.ts"],
    unstorable: [],
  },
  modeChanged: { type: "modeChanged", mode: "acceptEdits" },
  modelChanged: { type: "modelChanged", model: "gpt-5" },
  effortChanged: { type: "effortChanged", effort: "low" },
  titleChanged: { type: "titleChanged", title: "Fix the login test" },
  costUpdated: { type: "costUpdated", sessionUsage: usage },
  commandOutput: { type: "commandOutput", name: "cost", markdown: "**Cost:** $0.01" },
  routeChosen: { type: "routeChosen", route: { effort: "low", reason: "a one-line question" } },
  completionClaimUnchecked: {
    type: "completionClaimUnchecked",
    claim: { turnId, text: "All tests pass.", kind: "tests" },
  },
  turnToneJudged: { type: "turnToneJudged", turnId, tone: "frustrated" },
  urgencyScored: {
    type: "urgencyScored",
    urgency: { item: approvalId, level: "high", reason: "a force push waits" },
  },
  taskViewApplied: {
    type: "taskViewApplied",
    view: { restored: false, setAside: 3, keptMessages: 4, artifact: "task-view-turn-5.txt" },
  },
  suggested: {
    type: "suggested",
    suggestion: { id: "sg-1", kind: "plan", text: "This looks large: plan it first?", turnId },
  },
  suggestionResolved: { type: "suggestionResolved", suggestionId: "sg-1", accepted: true },
  decisionTraced: {
    type: "decisionTraced",
    trace: {
      use: "review_call",
      seam: "toolGate",
      mode: "on",
      outcome: "advice",
      applied: true,
      durationMs: 3.2,
      detail: "ask: force push",
    },
  },
  mcpServerUpdated: {
    type: "mcpServerUpdated",
    server: { name: "github", state: "ready", transport: "stdio", tools: 12, startMs: 840 },
  },
};
