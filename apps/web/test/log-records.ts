// Stored sessions of any length for the scale tests and the session1000 bench: log records
// written straight into a session's log.jsonl.
import { newMessageId, newTurnId } from "@z-engine/protocol";

/**
 * Log records of `turns` finished turns (4 events each when told as history): prompt `question
 * i`, the answer `answer(i)` (default `answer number i`).
 */
export function turnsRecords(
  turns: number,
  ts: number,
  answer: (i: number) => string = (i) => `answer number ${i}`,
): string {
  const badge = { status: "notApplicable", reason: "No code changed.", checks: [] };
  const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, costUsd: 0 };
  const lines: string[] = [];
  for (let i = 0; i < turns; i++) {
    const turnId = newTurnId();
    const user = newMessageId();
    const base = { v: 2, ts: ts + i };
    lines.push(
      JSON.stringify({
        ...base,
        kind: "turnStarted",
        turnId,
        userMessageId: user,
        prompt: `question ${i}`,
      }),
      JSON.stringify({
        ...base,
        kind: "message",
        turnId,
        message: { id: user, role: "user", content: [{ type: "text", text: `question ${i}` }] },
      }),
      JSON.stringify({
        ...base,
        kind: "message",
        turnId,
        message: {
          id: newMessageId(),
          role: "assistant",
          content: [{ type: "text", text: answer(i) }],
        },
      }),
      JSON.stringify({
        ...base,
        kind: "turnEnded",
        turnId,
        outcome: "completed",
        usage,
        badge,
        durationMs: 5,
      }),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Answers of varied heights (markdown; every fifth with a highlighted code block), as the session1000 bench uses. */
export const variedAnswer = (i: number): string =>
  i % 5 === 0
    ? `Here is step **${i}**, with the code:\n\n\`\`\`ts\nexport function step${i}(input: number): number {\n  // scale it\n  return input * ${i} + 1;\n}\n\`\`\`\n\n- it keeps the \`input\`\n- it returns a number`
    : `Answer number ${i}: the change in \`src/module${i}.ts\` keeps the API and adds a test. ${"It reads well. ".repeat(1 + (i % 7))}`;
