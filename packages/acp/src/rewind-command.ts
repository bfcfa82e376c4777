import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { readSessionView, type SessionHandle, type SlashCommandInfo } from "@z-engine/engine";
import type { EngineEventOf, RewindRestore } from "@z-engine/protocol";

/** The agent's own command: rewind is a checkpoint restore, which ACP has no method for. */
export const REWIND_COMMAND: AvailableCommand = {
  name: "rewind",
  description:
    "Restore the files, the conversation or both to before one of your messages (no argument: list them)",
  input: { hint: "[N] [code|conversation|both]" },
};

/** The session's `/` catalog as ACP commands, with `rewind` added (names without the slash). */
export function availableCommands(catalog: readonly SlashCommandInfo[]): AvailableCommand[] {
  const commands = catalog.map(
    (c): AvailableCommand => ({
      name: c.name,
      description: c.description,
      ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}),
    }),
  );
  return commands.some((c) => c.name === REWIND_COMMAND.name)
    ? commands
    : [...commands, REWIND_COMMAND];
}

/** `/rewind ...` as its arguments, or undefined for any other prompt. */
export function rewindArgs(text: string): string[] | undefined {
  const match = /^\/rewind(?:\s+(.*))?$/s.exec(text.trim());
  return match ? (match[1] ?? "").split(/\s+/).filter(Boolean) : undefined;
}

const RESTORES: readonly RewindRestore[] = ["code", "conversation", "both"];

function quoted(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/**
 * Runs `/rewind [N] [code|conversation|both]` on an idle session: without N, the answer lists
 * the user messages to rewind to; with N, the engine rewinds to before the N-th (default
 * `both`) and the answer tells what it restored. Resolves with the markdown to show. Never
 * rejects for bad input (the answer says what was wrong).
 */
export async function runRewind(handle: SessionHandle, args: readonly string[]): Promise<string> {
  const view = await readSessionView(handle.logPath);
  const targets = view.messages.filter((m) => m.role === "user");
  const [which, how = "both"] = args;
  if (which === undefined) {
    if (targets.length === 0) return "There is nothing to rewind to yet.";
    const lines = targets.map((m, i) => `${i + 1}. ${quoted(m.text)}`);
    return `Rewind to before which message? \`/rewind N [code|conversation|both]\`\n\n${lines.join("\n")}`;
  }
  const index = Number(which);
  const target = Number.isInteger(index) ? targets[index - 1] : undefined;
  if (!target) return `There is no message ${which} to rewind to (1 to ${targets.length}).`;
  if (!RESTORES.includes(how as RewindRestore))
    return `Rewind restores code, conversation or both (got "${how}").`;
  const done = waitForRewound(handle);
  handle.send({ type: "rewind", messageId: target.messageId, restore: how as RewindRestore });
  const result = await done;
  if (typeof result === "string") return `Could not rewind: ${result}`;
  const files = result.restoredPaths.length;
  const skipped =
    result.unstorable.length > 0
      ? ` Left alone (too large to store): ${result.unstorable.join(", ")}.`
      : "";
  return `Rewound ${how === "both" ? "the files and the conversation" : `the ${how}`} to before "${quoted(target.text)}" (${files} file${files === 1 ? "" : "s"} restored).${skipped}`;
}

/** The notices of a rewind that did nothing (the engine's codes). */
const REFUSED = new Set(["rewind.failed", "rewind.unknownMessage", "rewind.busy"]);

/** The `rewound` event of the next rewind, or the message of the notice that refused it. */
async function waitForRewound(handle: SessionHandle): Promise<EngineEventOf<"rewound"> | string> {
  for await (const { event } of handle.events()) {
    if (event.type === "rewound") return event;
    if (event.type === "notice" && REFUSED.has(event.code)) return event.message;
  }
  return "the session closed";
}
