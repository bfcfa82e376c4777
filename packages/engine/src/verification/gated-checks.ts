import { join } from "node:path";
import { type Action, decide, parseCommand } from "@z-engine/policy";
import { type CheckId, newToolCallId, type TurnId } from "@z-engine/protocol";
import { effectiveRules } from "../batch/gate.js";
import type { SessionCore } from "../session/core.js";

/**
 * Runs checks at the stop boundary through the same gate as a Verify call (design.md §3):
 * each check's command is one command action; an ask is requested like any approval (and
 * denied in headless mode). Resolves to false when the checks were denied or could not run.
 */
export async function runChecksThroughGate(
  core: SessionCore,
  ids: readonly CheckId[],
  turnId: TurnId,
  signal: AbortSignal,
): Promise<boolean> {
  const port = core.ports.checks;
  const defs = core.checks().filter((c) => ids.includes(c.id));
  if (!port || defs.length === 0) return false;
  const actions: Action[] = await Promise.all(
    defs.map(async (d) => ({
      kind: "command" as const,
      command: await parseCommand(d.command),
      cwd: join(core.projectRoot, d.cwd),
    })),
  );
  const decision = decide({ toolName: "Verify", actions }, core.mode, effectiveRules(core), {
    projectRoot: core.projectRoot,
    additionalDirectories: core.additionalDirectories,
    homeDir: core.homeDir,
    autoAllowReadOnlyBash: core.config.settings.permissions.auto_allow_read_only_bash,
  });
  const title = `Run ${defs.map((d) => d.command).join(", ")}`;
  if (decision.type === "deny") {
    await core.journal.notice(
      "warning",
      "verification.denied",
      `automatic checks not run: ${decision.reason}`,
      { turnId },
    );
    return false;
  }
  if (decision.type === "ask") {
    const [answer] = await core.approvals.requestAll(
      [
        {
          toolCallId: newToolCallId(),
          toolName: "Verify",
          title,
          reason: decision.reason,
          suggestedRules: decision.suggestedRules,
        },
      ],
      turnId,
      signal,
    );
    if (!answer || answer.decision.type === "deny") return false;
  }
  await port.run(
    defs.map((d) => d.id),
    signal,
  );
  return true;
}
