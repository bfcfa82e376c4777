import { newQuestionId, TodoItem } from "@z-engine/protocol";
import { z } from "zod";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput, textOutput } from "../tool-output.js";
import { describe } from "./describe.js";

const TodoWriteInput = lazySchema(() =>
  z.strictObject({
    todos: z.array(TodoItem).describe("The whole updated todo list"),
  }),
);

/** TodoWrite: replaces the agent's todo list (through InteractionPort). */
export const todoWriteTool = defineTool({
  name: "TodoWrite",
  description: describe(
    "TodoWrite",
    "Replaces your todo list with `todos` (content, status, activeForm).",
  ),
  inputSchema: TodoWriteInput,
  inputJsonSchema: builtinInputJsonSchema("TodoWrite"),
  requires: ["interaction"],
  isReadOnly: () => true,
  title: (input) => `TodoWrite (${input.todos.length} items)`,
  call: async (input, ctx) => {
    const port = ctx.ports.interaction;
    if (!port) return errorOutput("Todos are not available in this session.");
    port.updateTodos(input.todos);
    const done = input.todos.filter((t) => t.status === "completed").length;
    return textOutput(
      `Todo list updated (${done} of ${input.todos.length} completed). Keep it current as you work.`,
      { display: { kind: "todos", todos: input.todos } },
    );
  },
});

const QuestionInput = lazySchema(() =>
  z.strictObject({
    question: z.string().min(1).describe("The full question"),
    header: z.string().optional().describe("A very short label (up to 12 characters)"),
    options: z
      .array(z.strictObject({ label: z.string().min(1), description: z.string().optional() }))
      .min(2)
      .max(4)
      .describe("Two to four choices"),
    multiSelect: z.boolean().describe("Whether several options may be chosen"),
  }),
);
const AskInput = lazySchema(() =>
  z.strictObject({
    questions: z.array(QuestionInput()).min(1).max(4).describe("One to four questions"),
  }),
);

/** AskUserQuestion: asks structured questions through InteractionPort and returns the answers. */
export const askUserQuestionTool = defineTool({
  name: "AskUserQuestion",
  description: describe(
    "AskUserQuestion",
    "Asks the user one to four multiple-choice questions and waits for the answers.",
  ),
  inputSchema: AskInput,
  inputJsonSchema: builtinInputJsonSchema("AskUserQuestion"),
  requires: ["interaction"],
  action: async () => [{ kind: "askUser" }],
  title: (input) => `AskUserQuestion (${input.questions.length})`,
  call: async (input, ctx) => {
    const port = ctx.ports.interaction;
    if (!port)
      return errorOutput(
        "There is no one to ask in this session; decide yourself and say what you assumed.",
      );
    const answers = await port.ask({ id: newQuestionId(), questions: input.questions }, ctx.signal);
    if (!answers) return errorOutput("The user did not answer the questions.");
    const lines = input.questions.map(
      (q) => `"${q.question}" = "${answers[q.question] ?? "(no answer)"}"`,
    );
    return textOutput(
      `The user answered:\n${lines.join("\n")}\nContinue with these answers in mind.`,
    );
  },
});

const PlanInput = lazySchema(() =>
  z.strictObject({ plan: z.string().min(1).describe("The plan, in markdown") }),
);

/** ExitPlanMode: proposes the plan for review through InteractionPort. */
export const exitPlanModeTool = defineTool({
  name: "ExitPlanMode",
  description: describe(
    "ExitPlanMode",
    "Presents your plan for review and asks to leave plan mode.",
  ),
  inputSchema: PlanInput,
  inputJsonSchema: builtinInputJsonSchema("ExitPlanMode"),
  requires: ["interaction"],
  isReadOnly: () => true,
  action: async () => [{ kind: "askUser" }],
  title: () => "ExitPlanMode",
  preview: async (input) => ({ kind: "text", text: input.plan }),
  call: async (input, ctx) => {
    const port = ctx.ports.interaction;
    if (!port) return errorOutput("Plan review is not available in this session.");
    const review = await port.proposePlan(input.plan, ctx.signal);
    const feedback = review.feedback ? `\n\nThe user's feedback:\n${review.feedback}` : "";
    if (review.approved)
      return textOutput(`The user approved the plan. You may now make changes.${feedback}`);
    return errorOutput(
      `The user did not approve the plan. Stay in plan mode and revise it.${feedback}`,
    );
  },
});
