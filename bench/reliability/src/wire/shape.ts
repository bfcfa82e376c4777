import type { FakeProviderRequest } from "@z-engine/testkit";

type Json = Record<string, unknown>;
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asObject = (v: unknown): Json => (typeof v === "object" && v !== null ? (v as Json) : {});

/** The tool_use ids and tool_result ids of one Anthropic message's content. */
function anthropicBlocks(content: unknown): { calls: string[]; results: string[]; empty: boolean } {
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : asArray(content);
  const calls: string[] = [];
  const results: string[] = [];
  for (const raw of blocks) {
    const b = asObject(raw);
    if (b.type === "tool_use") calls.push(String(b.id));
    if (b.type === "tool_result") results.push(String(b.tool_use_id));
  }
  const empty =
    blocks.length === 0 ||
    blocks.some((raw) => {
      const b = asObject(raw);
      return b.type === "text" && String(b.text ?? "").trim() === "";
    });
  return { calls, results, empty };
}

function anthropicProblems(body: Json): string[] {
  const problems: string[] = [];
  const messages = asArray(body.messages).map(asObject);
  if (messages[0]?.role !== "user") problems.push("the first message is not the user's");
  const seen = new Set<string>();
  messages.forEach((m, i) => {
    const next = messages[i + 1];
    if (next && next.role === m.role)
      problems.push(`messages ${i} and ${i + 1} are both ${m.role}`);
    const { calls, results, empty } = anthropicBlocks(m.content);
    if (empty) problems.push(`message ${i} is empty or has a blank text block`);
    for (const id of calls) {
      if (seen.has(id)) problems.push(`tool_use id ${id} is used twice`);
      seen.add(id);
    }
    const previous = i > 0 ? anthropicBlocks(messages[i - 1]?.content).calls : [];
    for (const id of results)
      if (!previous.includes(id))
        problems.push(`tool_result ${id} in message ${i} answers no call`);
    if (calls.length === 0) return;
    const answered = next ? anthropicBlocks(next.content).results : [];
    for (const id of calls)
      if (!answered.includes(id))
        problems.push(`tool_use ${id} of message ${i} is not answered next`);
  });
  return problems;
}

function openAiProblems(body: Json): string[] {
  const problems: string[] = [];
  const messages = asArray(body.messages).map(asObject);
  const seen = new Set<string>();
  let open: string[] = [];
  let sawUser = false;
  messages.forEach((m, i) => {
    const role = String(m.role);
    if (role !== "tool" && open.length > 0) {
      problems.push(`tool calls ${open.join(", ")} are not answered before message ${i}`);
      open = [];
    }
    if (role === "user") sawUser = true;
    if (role === "assistant") {
      if (!sawUser) problems.push(`assistant message ${i} comes before any user message`);
      const calls = asArray(m.tool_calls).map((c) => String(asObject(c).id));
      const text = typeof m.content === "string" ? m.content : "";
      if (calls.length === 0 && text.trim() === "")
        problems.push(`assistant message ${i} is empty`);
      for (const id of calls) {
        if (seen.has(id)) problems.push(`tool call id ${id} is used twice`);
        seen.add(id);
      }
      open = calls;
    }
    if (role === "tool") {
      const id = String(m.tool_call_id);
      if (!open.includes(id)) problems.push(`tool message ${i} (${id}) answers no open call`);
      open = open.filter((c) => c !== id);
    }
  });
  if (open.length > 0) problems.push(`tool calls ${open.join(", ")} are never answered`);
  return problems;
}

/**
 * What is wrong with the shape of a request as it went over the wire (empty when it is well
 * formed for its provider): it starts with the user, roles alternate (Anthropic), every tool
 * call id is used once, every call is answered right after it by exactly its results, no
 * result answers nothing, and no message is empty.
 */
export function wireShapeProblems(request: FakeProviderRequest): string[] {
  const body = asObject(request.body);
  return request.format === "anthropic" ? anthropicProblems(body) : openAiProblems(body);
}

/** The tool results a wire request sends, by call id, as text. */
export function wireToolResults(request: FakeProviderRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of asArray(asObject(request.body).messages)) {
    const m = asObject(raw);
    if (request.format === "openai") {
      if (m.role === "tool") out.set(String(m.tool_call_id), JSON.stringify(m.content));
      continue;
    }
    for (const b of asArray(m.content).map(asObject))
      if (b.type === "tool_result") out.set(String(b.tool_use_id), JSON.stringify(b.content));
  }
  return out;
}

/** True for a main agent's request (it offers tools); titles and summaries offer none. */
export function offersTools(request: FakeProviderRequest): boolean {
  return asArray(asObject(request.body).tools).length > 0;
}
