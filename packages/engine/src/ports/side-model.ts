import { MessageAssembler, type ModelClient } from "@z-engine/protocol";
import type { SideModelPort } from "@z-engine/tools";

const SYSTEM =
  "You answer a question about a document the user fetched. Answer from the document only, concisely; say so when it does not contain the answer.";

/** The fast model answering questions about fetched content (WebFetch). */
export class FastModelSide implements SideModelPort {
  constructor(
    private readonly client: () => ModelClient,
    private readonly model: () => string,
  ) {}

  async complete(prompt: string, content: string, signal: AbortSignal): Promise<string> {
    const assembler = new MessageAssembler();
    const stream = this.client().stream(
      {
        model: this.model(),
        system: [{ id: "base", text: SYSTEM, cacheable: false }],
        tools: [],
        messages: [
          {
            role: "user",
            content: [{ type: "text", text: `<document>\n${content}\n</document>\n\n${prompt}` }],
          },
        ],
        cacheMarks: [],
        maxTokens: 4096,
      },
      { signal },
    );
    for await (const event of stream) assembler.push(event);
    if (assembler.error) throw new Error(`the fast model failed: ${assembler.error.message}`);
    return assembler.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  }
}
