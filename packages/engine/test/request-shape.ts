import type { ModelRequest } from "@z-engine/protocol";

/**
 * The problems of a request's shape (empty when well-formed): it starts with a user message,
 * roles alternate, and every tool call is answered in the very next message, by a result
 * for each call and for no other.
 */
export function requestShapeProblems(request: ModelRequest): string[] {
  const problems: string[] = [];
  const messages = request.messages;
  if (messages[0]?.role !== "user") problems.push("the first message is not the user's");
  messages.forEach((message, i) => {
    const next = messages[i + 1];
    if (next && next.role === message.role)
      problems.push(`messages ${i} and ${i + 1} are both ${message.role}`);
    if (message.role !== "assistant") return;
    const calls = message.content.flatMap((b) => (b.type === "toolUse" ? [b.id as string] : []));
    if (calls.length === 0) return;
    const answered = (next?.content ?? []).flatMap((b) =>
      b.type === "toolResult" ? [b.toolUseId as string] : [],
    );
    for (const id of calls)
      if (!answered.includes(id))
        problems.push(`tool call ${id} of message ${i} has no result in the next message`);
    for (const id of answered)
      if (!calls.includes(id)) problems.push(`result ${id} in message ${i + 1} answers no call`);
  });
  return problems;
}
