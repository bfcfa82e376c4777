import type { CheckDefinition, CheckId, CheckRecord } from "@z-engine/protocol";
import { z } from "zod";
import type { ToolCtx } from "../ctx.js";
import { parseCommand } from "../external.js";
import { realPath } from "../paths.js";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput, type ToolOutput, textOutput } from "../tool-output.js";
import { describe } from "./describe.js";

const VerifyInput = lazySchema(() =>
  z.strictObject({
    checks: z
      .array(z.string().min(1))
      .optional()
      .describe('Check ids such as "npm:test"; default: the selected test checks'),
    list: z.boolean().optional().describe("List the available checks without running anything"),
  }),
);
type VerifyInput = z.infer<ReturnType<typeof VerifyInput>>;

/** The checks a call names (or the defaults), or the unknown ids. */
function selectChecks(
  input: VerifyInput,
  ctx: ToolCtx,
): { ok: true; checks: CheckDefinition[] } | { ok: false; error: string } {
  const port = ctx.ports.checks;
  if (!port) return { ok: false, error: "No checks are available in this session." };
  if (!input.checks) return { ok: true, checks: [...port.defaultChecks()] };
  const all = port.checks();
  const unknown = input.checks.filter((id) => !all.some((c) => c.id === id));
  if (unknown.length > 0) {
    return {
      ok: false,
      error: `Unknown check id(s): ${unknown.join(", ")}. Available: ${all.map((c) => c.id).join(", ") || "none"}.`,
    };
  }
  return {
    ok: true,
    checks: input.checks.map((id) => all.find((c) => c.id === id)).filter((c) => c !== undefined),
  };
}

function listing(ctx: ToolCtx): string {
  const all = ctx.ports.checks?.checks() ?? [];
  if (all.length === 0) return "No checks were found for this project.";
  return all
    .map((c) => `${c.id} (${c.kind}): ${c.command}${c.cwd === "." ? "" : ` in ${c.cwd}`}`)
    .join("\n");
}

function summary(record: CheckRecord): string {
  const counts = record.counts
    ? `, ${record.counts.passed} passed, ${record.counts.failed} failed, ${record.counts.skipped} skipped`
    : "";
  const verdict = record.passed ? "PASSED" : record.exitCode === null ? "STOPPED" : "FAILED";
  const head = `${verdict} ${record.checkId} (\`${record.command}\`, exit ${record.exitCode ?? "none"}, ${Math.round(record.durationMs)} ms${counts})`;
  const tail = record.passed
    ? ""
    : `\n${record.outputTail}${record.output ? `\n[Full output: ${record.output.ref}]` : ""}`;
  return head + tail;
}

async function verify(input: VerifyInput, ctx: ToolCtx): Promise<ToolOutput> {
  if (input.list) return textOutput(listing(ctx));
  const selected = selectChecks(input, ctx);
  if (!selected.ok) return errorOutput(selected.error);
  if (selected.checks.length === 0)
    return errorOutput(`No test checks to run by default. Pass check ids:\n${listing(ctx)}`);
  const records = await (ctx.ports.checks?.run(
    selected.checks.map((c) => c.id as CheckId),
    ctx.signal,
  ) ?? []);
  const failed = records.filter((r) => !r.passed).length;
  const head =
    failed === 0
      ? `All ${records.length} check(s) passed.`
      : `${failed} of ${records.length} check(s) failed.`;
  const text = [head, ...records.map(summary)].join("\n\n");
  return failed === 0 ? textOutput(text) : errorOutput(text);
}

/** Verify: runs the session's checks through CheckPort and records them as evidence; each check's command is its action. */
export const verifyTool = defineTool({
  name: "Verify",
  description: describe("Verify", "Runs the project's checks and records each result as evidence."),
  inputSchema: VerifyInput,
  inputJsonSchema: builtinInputJsonSchema("Verify"),
  requires: ["checks"],
  isReadOnly: (input) => input.list === true,
  action: async (input, ctx) => {
    if (input.list) return [{ kind: "none" }];
    const selected = selectChecks(input, ctx);
    if (!selected.ok || selected.checks.length === 0) return [{ kind: "none" }];
    return Promise.all(
      selected.checks.map(async (check) => ({
        kind: "command" as const,
        command: await parseCommand(check.command),
        cwd: await realPath(check.cwd, ctx.root),
      })),
    );
  },
  title: (input) =>
    input.list ? "Verify (list)" : `Verify ${input.checks?.join(", ") ?? "(default checks)"}`,
  call: verify,
});
