import type {
  CheckDefinition,
  CheckId,
  CheckRecord,
  CheckRunId,
  Question,
  TodoItem,
} from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import type { CheckPort, InteractionPort } from "../ports.js";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { askUserQuestionTool, exitPlanModeTool, todoWriteTool } from "./interaction.js";
import { verifyTool } from "./verify.js";

function interaction(answers: Record<string, string> | null, approved = true) {
  const todos: TodoItem[][] = [];
  const asked: Question[] = [];
  const port: InteractionPort = {
    ask: async (question) => {
      asked.push(question);
      return answers;
    },
    proposePlan: async () => ({ approved, feedback: approved ? undefined : "Use smaller steps" }),
    updateTodos: (list) => todos.push([...list]),
  };
  return { port, todos, asked };
}

describe("TodoWrite, AskUserQuestion, ExitPlanMode", () => {
  it("updates the todo list through the port", async () => {
    const { port, todos } = interaction(null);
    const list = [
      { content: "Fix it", status: "in_progress", activeForm: "Fixing it" },
      { content: "Test it", status: "completed" },
    ];
    const out = await runTool(
      todoWriteTool,
      { todos: list },
      testCtx({ root: "/tmp", ports: { interaction: port } }),
    );
    expect(textOf(out)).toMatch(/1 of 2 completed/);
    expect(todos).toEqual([list]);
    expect(out.display).toEqual({ kind: "todos", todos: list });
    const bad = await runTool(
      todoWriteTool,
      { todos: [{ content: "x", status: "doing" }] },
      testCtx({ root: "/tmp", ports: { interaction: port } }),
    );
    expect(textOf(bad)).toMatch(/todos\[0\]\.status/);
  });

  it("asks questions and returns the answers; a declined ask is an error result", async () => {
    const question = {
      question: "Which database?",
      header: "DB",
      options: [{ label: "Postgres" }, { label: "SQLite" }],
      multiSelect: false,
    };
    const { port, asked } = interaction({ "Which database?": "SQLite" });
    const ctx = testCtx({ root: "/tmp", ports: { interaction: port } });
    const out = await runTool(askUserQuestionTool, { questions: [question] }, ctx);
    expect(textOf(out)).toContain('"Which database?" = "SQLite"');
    expect(asked[0]?.questions).toEqual([question]);
    expect(await askUserQuestionTool.action({ questions: [question] }, ctx)).toEqual([
      { kind: "askUser" },
    ]);
    const declined = await runTool(
      askUserQuestionTool,
      { questions: [question] },
      testCtx({ root: "/tmp", ports: { interaction: interaction(null).port } }),
    );
    expect(declined.isError).toBe(true);
    expect(
      textOf(
        await runTool(
          askUserQuestionTool,
          { questions: [{ ...question, options: [{ label: "only" }] }] },
          ctx,
        ),
      ),
    ).toMatch(/options/);
    expect(
      textOf(
        await runTool(askUserQuestionTool, { questions: [question] }, testCtx({ root: "/tmp" })),
      ),
    ).toMatch(/no one to ask/);
  });

  it("proposes a plan and passes the review back", async () => {
    const approved = await runTool(
      exitPlanModeTool,
      { plan: "1. Do it" },
      testCtx({ root: "/tmp", ports: { interaction: interaction(null, true).port } }),
    );
    expect(textOf(approved)).toMatch(/approved the plan/);
    const rejected = await runTool(
      exitPlanModeTool,
      { plan: "1. Do it" },
      testCtx({ root: "/tmp", ports: { interaction: interaction(null, false).port } }),
    );
    expect(rejected.isError).toBe(true);
    expect(textOf(rejected)).toMatch(/did not approve[\s\S]*Use smaller steps/);
  });
});

const CHECKS: CheckDefinition[] = [
  { id: "npm:test" as CheckId, kind: "test", command: "npm test", cwd: ".", source: "discovered" },
  {
    id: "npm:build@packages/api" as CheckId,
    kind: "build",
    command: "npm run build",
    cwd: "packages/api",
    source: "discovered",
  },
];

function checkPort(failing: string[] = []) {
  const runs: CheckId[][] = [];
  const port: CheckPort = {
    checks: () => CHECKS,
    defaultChecks: () => CHECKS.filter((c) => c.kind === "test"),
    run: async (ids) => {
      runs.push([...ids]);
      return ids.map((id): CheckRecord => {
        const def = CHECKS.find((c) => c.id === id)!;
        const passed = !failing.includes(id);
        return {
          runId: `run_${id}` as CheckRunId,
          checkId: id,
          kind: def.kind,
          command: def.command,
          cwd: def.cwd,
          exitCode: passed ? 0 : 1,
          passed,
          counts: def.kind === "test" ? { passed: 3, failed: passed ? 0 : 1, skipped: 0 } : null,
          startedAt: 0,
          durationMs: 12,
          outputTail: passed ? "ok" : "FAIL login test",
          output: null,
          fingerprintBefore: "a",
          fingerprintAfter: "a",
        };
      });
    },
  };
  return { port, runs };
}

describe("Verify", () => {
  it("makes each check's command one command action, resolved from the root", async () => {
    const ctx = testCtx({ root: "/tmp", ports: { checks: checkPort().port } });
    const actions = await verifyTool.action(
      { checks: ["npm:test", "npm:build@packages/api"] },
      ctx,
    );
    expect(
      actions.map((a) => (a.kind === "command" ? [a.command.commands[0]?.argv, a.cwd] : a.kind)),
    ).toEqual([
      [["npm", "test"], "/tmp"],
      [["npm", "run", "build"], "/tmp/packages/api"],
    ]);
    expect(await verifyTool.action({}, ctx)).toHaveLength(1);
    expect(await verifyTool.action({ list: true }, ctx)).toEqual([{ kind: "none" }]);
  });

  it("runs the default checks and summarises them", async () => {
    const { port, runs } = checkPort();
    const out = await runTool(verifyTool, {}, testCtx({ root: "/tmp", ports: { checks: port } }));
    expect(runs).toEqual([["npm:test"]]);
    expect(out.isError).toBe(false);
    expect(textOf(out)).toBe(
      "All 1 check(s) passed.\n\nPASSED npm:test (`npm test`, exit 0, 12 ms, 3 passed, 0 failed, 0 skipped)",
    );
  });

  it("reports failures with their output, unknown ids and the listing", async () => {
    const { port } = checkPort(["npm:test"]);
    const ctx = testCtx({ root: "/tmp", ports: { checks: port } });
    const failed = await runTool(
      verifyTool,
      { checks: ["npm:test", "npm:build@packages/api"] },
      ctx,
    );
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(
      /^1 of 2 check\(s\) failed\.[\s\S]*FAILED npm:test[\s\S]*FAIL login test/,
    );
    const unknown = await runTool(verifyTool, { checks: ["cargo:test"] }, ctx);
    expect(textOf(unknown)).toMatch(
      /Unknown check id\(s\): cargo:test\. Available: npm:test, npm:build@packages\/api/,
    );
    expect(textOf(await runTool(verifyTool, { list: true }, ctx))).toBe(
      "npm:test (test): npm test\nnpm:build@packages/api (build): npm run build in packages/api",
    );
    expect(textOf(await runTool(verifyTool, {}, testCtx({ root: "/tmp" })))).toMatch(
      /No checks are available/,
    );
  });
});
