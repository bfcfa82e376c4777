import { MessageAssembler } from "@z-engine/protocol";
import type { SideModelCaller, SideModelPort } from "@z-engine/tools";
import { MAIN_AGENT } from "../batch/tool-ctx.js";
import { meteredClient, type SpendAttribution, type SpendCore } from "../core/spend.js";
import type { SessionCore } from "../core/session-core.js";

const SYSTEM =
  "You answer a question about a document the user fetched. Answer from the document only, concisely; say so when it does not contain the answer.";

/** What the side model takes of its session: the fast model's client and the accounting. */
export type SideModelCore = SpendCore & Pick<SessionCore, "client">;

/**
 * Whose the side model's spend is: the calling tool's (source `webfetch` for WebFetch, else
 * `side`), its agent's, and the running turn of that agent (a subagent's own run, else the
 * session's turn).
 */
function attribution(core: SideModelCore, caller: SideModelCaller | undefined): SpendAttribution {
  const sub = caller && caller.agentId !== MAIN_AGENT ? caller.agentId : undefined;
  const turn = sub ? core.state.agentTurn(sub) : core.state.currentTurn;
  return {
    source: caller?.toolName === "WebFetch" ? "webfetch" : "side",
    ...(turn ? { turn } : {}),
    ...(sub ? { agentId: sub } : {}),
    ...(caller ? { toolName: caller.toolName, toolCallId: caller.toolCallId } : {}),
  };
}

/**
 * The fast model answering questions about fetched content (WebFetch), over the session
 * `core` gives (absent before it is built: the call rejects). Each call's spend is
 * accounted to its caller; a cost cap reached rejects the call unsent.
 */
export class FastModelSide implements SideModelPort {
  constructor(private readonly core: () => SideModelCore | undefined) {}

  async complete(
    prompt: string,
    content: string,
    signal: AbortSignal,
    caller?: SideModelCaller,
  ): Promise<string> {
    const core = this.core();
    if (!core) throw new Error("the fast model is not ready: the session is still opening");
    const model = core.config.fastModel;
    const client = meteredClient(core, core.client("fast", model), () => attribution(core, caller));
    const assembler = new MessageAssembler();
    const stream = client.stream(
      {
        model,
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
