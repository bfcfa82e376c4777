import { z } from "zod";
import type { ToolCtx } from "../ctx.js";
import { displayCommand, isReadOnlyCommandText, parseCommand } from "../external.js";
import { resolveCommandPaths } from "./bash-paths.js";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput, type ToolOutput, textOutput } from "../tool-output.js";
import { describe } from "./describe.js";

const BashInput = lazySchema(() =>
  z.strictObject({
    command: z.string().min(1).describe("The command to run"),
    timeout: z
      .number()
      .int()
      .min(1)
      .max(600_000)
      .optional()
      .describe("Timeout in milliseconds (max 600000)"),
    description: z.string().optional().describe("What the command does, in 5-10 words"),
    run_in_background: z
      .boolean()
      .optional()
      .describe("Start it as a background job and return its id at once"),
  }),
);
type BashInput = z.infer<ReturnType<typeof BashInput>>;

function readOnly(input: BashInput): boolean {
  return !input.run_in_background && isReadOnlyCommandText(input.command);
}

async function startJob(input: BashInput, ctx: ToolCtx): Promise<ToolOutput> {
  const jobs = ctx.ports.jobs;
  if (!jobs)
    return errorOutput(
      "Background jobs are not available in this session; run the command without run_in_background.",
    );
  const job = await jobs.spawnShell(
    { command: input.command, cwd: ctx.shellSession.cwd, ...(ctx.env ? { env: ctx.env } : {}) },
    input.description ?? input.command,
  );
  return textOutput(
    `Started background job ${job.id}. Read its output with JobOutput (job_id "${job.id}"); stop it with JobKill.`,
  );
}

async function run(input: BashInput, ctx: ToolCtx): Promise<ToolOutput> {
  if (input.run_in_background) return startJob(input, ctx);
  const cwd = ctx.shellSession.cwd;
  const timeoutMs = Math.min(
    input.timeout ?? ctx.limits.bashDefaultTimeoutMs,
    ctx.limits.bashMaxTimeoutMs,
  );
  const result = await ctx.shellSession.run({
    command: input.command,
    timeoutMs,
    signal: ctx.signal,
    onOutput: ctx.onProgress,
    artifacts: ctx.artifacts,
    maxOutputChars: ctx.limits.maxOutputChars,
    toolCallId: ctx.callId,
    ...(ctx.env ? { env: ctx.env } : {}),
  });
  const notes: string[] = [];
  if (result.error) notes.push(`The command could not run: ${result.error}`);
  if (result.timedOut) notes.push(`Timed out after ${timeoutMs} ms; the process tree was killed.`);
  if (result.cancelled) notes.push("Cancelled; the process tree was killed.");
  if (result.exitCode !== null && result.exitCode !== 0) notes.push(`Exit code ${result.exitCode}`);
  if (ctx.shellSession.cwd !== cwd) notes.push(`Working folder is now ${ctx.shellSession.cwd}`);
  const body = result.output === "" && notes.length === 0 ? "(no output)" : result.output;
  const text = [body, ...notes].filter((part) => part !== "").join("\n\n");
  const failed = result.exitCode !== 0;
  const display = {
    kind: "command" as const,
    command: input.command,
    cwd,
    output: result.output,
    exitCode: result.exitCode,
  };
  const extras = { display, artifacts: result.artifact ? [result.artifact] : [] };
  return failed ? errorOutput(text, extras) : textOutput(text, extras);
}

/** Bash: runs a command in the agent's persistent shell (timeout, progress, cancel kills the tree), or as a background job. */
export const bashTool = defineTool({
  name: "Bash",
  description: describe(
    "Bash",
    "Runs a shell command in the agent's shell and returns its output and exit code. Use run_in_background for long-running processes.",
  ),
  inputSchema: BashInput,
  inputJsonSchema: builtinInputJsonSchema("Bash"),
  isReadOnly: readOnly,
  action: async (input, ctx) => {
    const cwd = ctx.shellSession.cwd;
    const command = await parseCommand(input.command);
    const { realPaths, hardLinked } = await resolveCommandPaths(command, cwd);
    return [
      {
        kind: "command",
        command,
        cwd,
        ...(realPaths.size > 0 ? { realPaths } : {}),
        ...(hardLinked.size > 0 ? { hardLinked } : {}),
      },
    ];
  },
  // The approval card shows characters the shell and the gate may read differently escaped.
  title: (input) => `Bash ${displayCommand(input.description ?? input.command)}`,
  preview: async (input, ctx) => ({
    kind: "command",
    command: displayCommand(input.command),
    cwd: ctx.shellSession.cwd,
  }),
  call: run,
});
