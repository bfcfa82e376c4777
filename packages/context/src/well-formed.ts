import type {
  ContentBlock,
  Message,
  ModelMessage,
  ToolResultBlock,
  ToolUseBlock,
} from "@z-engine/protocol";

/** What an unanswered tool call reads as in a request. */
export const INTERRUPTED_RESULT_TEXT =
  "[Interrupted: this tool call did not finish and has no recorded result.]";

// Per-message cleaning, keyed by the (immutable) message object: the next round's request
// reuses the same objects for every unchanged message, which keeps it cheap and byte-stable.
const cleaned = new WeakMap<Message, ModelMessage | null>();

// Which blocks each role may carry (tool calls and reasoning come from the model; results
// and images from the user side).
const ALLOWED: Record<ModelMessage["role"], ReadonlySet<ContentBlock["type"]>> = {
  user: new Set(["text", "image", "toolResult"]),
  assistant: new Set(["text", "thinking", "redactedThinking", "toolUse"]),
};

function keepBlock(role: ModelMessage["role"], block: ContentBlock): boolean {
  if (!ALLOWED[role].has(block.type)) return false;
  if (block.type === "text") return block.text.trim() !== "";
  if (block.type === "thinking") return block.thinking !== "" || block.signature !== undefined;
  return true;
}

function clean(message: Message): ModelMessage | null {
  const hit = cleaned.get(message);
  if (hit !== undefined) return hit;
  const kept = message.content.filter((block) => keepBlock(message.role, block));
  const out =
    kept.length === 0
      ? null
      : {
          role: message.role,
          content: kept.length === message.content.length ? message.content : kept,
        };
  cleaned.set(message, out);
  return out;
}

function interrupted(call: ToolUseBlock): ToolResultBlock {
  return {
    type: "toolResult",
    toolUseId: call.id,
    content: [{ type: "text", text: INTERRUPTED_RESULT_TEXT }],
    isError: true,
  };
}

/** The walk's state: the output so far and the calls of its last assistant message. */
class Walk {
  readonly out: ModelMessage[] = [];
  pending: ToolUseBlock[] = [];
  readonly seenCalls = new Set<string>();
  group: ModelMessage[] = [];

  pushAssistant(message: ModelMessage): void {
    const content = this.withoutRepeatedCalls(message.content);
    if (content.length === 0) return;
    // A request starts with a user message: leading assistant messages are left out.
    if (this.out.length === 0) return;
    const last = this.out[this.out.length - 1];
    if (last?.role === "assistant") {
      if (this.pending.length > 0) this.closePending();
      else {
        this.out[this.out.length - 1] = {
          role: "assistant",
          content: [...last.content, ...content],
        };
        this.track(content);
        return;
      }
    }
    this.out.push(content === message.content ? message : { role: "assistant", content });
    this.track(content);
  }

  /** Drops tool calls whose id was already used, earlier or in the same message. */
  private withoutRepeatedCalls(content: ModelMessage["content"]): ModelMessage["content"] {
    const ids = new Set<string>();
    let repeated = false;
    for (const block of content) {
      if (block.type !== "toolUse") continue;
      if (this.seenCalls.has(block.id) || ids.has(block.id)) repeated = true;
      ids.add(block.id);
    }
    if (!repeated) return content;
    ids.clear();
    return content.filter((block) => {
      if (block.type !== "toolUse") return true;
      if (this.seenCalls.has(block.id) || ids.has(block.id)) return false;
      ids.add(block.id);
      return true;
    });
  }

  private track(content: readonly ContentBlock[]): void {
    for (const block of content) {
      if (block.type !== "toolUse") continue;
      this.seenCalls.add(block.id);
      this.pending.push(block);
    }
  }

  closePending(): void {
    this.out.push({ role: "user", content: this.pending.map(interrupted) });
    this.pending = [];
  }

  flushUsers(): void {
    const group = this.group;
    if (group.length === 0) return;
    this.group = [];
    const single = group.length === 1 ? group[0] : undefined;
    if (single !== undefined && this.alreadyPaired(single.content)) {
      this.pending = [];
      this.pushUser(single);
      return;
    }
    const blocks = group.flatMap((m) => m.content);
    const others = blocks.filter((b) => b.type !== "toolResult");
    const results = this.pending.map((call) => {
      const found = blocks.find((b) => b.type === "toolResult" && b.toolUseId === call.id);
      return found ?? interrupted(call);
    });
    this.pending = [];
    const content = [...results, ...others];
    if (content.length > 0) this.pushUser({ role: "user", content });
  }

  /** True when the content answers exactly the pending calls, in order, before anything else. */
  private alreadyPaired(content: readonly ContentBlock[]): boolean {
    const n = this.pending.length;
    for (let i = 0; i < content.length; i++) {
      const block = content[i];
      if (block === undefined) return false;
      if (i < n) {
        if (block.type !== "toolResult" || block.toolUseId !== this.pending[i]?.id) return false;
      } else if (block.type === "toolResult") return false;
    }
    return content.length >= n;
  }

  private pushUser(message: ModelMessage): void {
    const last = this.out[this.out.length - 1];
    if (last?.role === "user") {
      this.out[this.out.length - 1] = {
        role: "user",
        content: [...last.content, ...message.content],
      };
    } else this.out.push(message);
  }
}

/**
 * Makes any transcript valid for both providers. The result starts with a user message,
 * alternates roles, answers every tool call in the very next message (results first, in
 * call order; a call without a result gets an error result saying it was interrupted), and
 * holds no orphan or duplicate tool results, no block in the wrong role's message, no repeated call ids, no empty messages and no
 * blank text blocks. Consecutive user messages are merged; consecutive assistant messages
 * are merged unless the first has calls, which are then closed as interrupted. Leading
 * assistant messages are left out. A trailing assistant message without calls stays.
 *
 * Pure and deterministic: the same input gives equal output, and unchanged messages come
 * back as the same objects (ids dropped), so appending to a transcript never changes the
 * conversion of its earlier, well-formed part. Never throws.
 */
export function makeWellFormed(messages: readonly Message[]): ModelMessage[] {
  const walk = new Walk();
  for (const message of messages) {
    const cleanMessage = clean(message);
    if (cleanMessage === null) continue;
    if (cleanMessage.role === "user") {
      walk.group.push(cleanMessage);
      continue;
    }
    walk.flushUsers();
    walk.pushAssistant(cleanMessage);
  }
  walk.flushUsers();
  if (walk.pending.length > 0) walk.closePending();
  return walk.out;
}
