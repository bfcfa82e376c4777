// Typical host code, written against the official `@anthropic-ai/claude-agent-sdk` as its
// documentation shows it. `types.test.ts` compiles it twice: once with "agent-sdk-under-test"
// resolving to the official package's .d.ts, once to this package; both must compile.
import {
  type CanUseTool,
  createSdkMcpServer,
  type HookCallback,
  type Options,
  type PreToolUseHookInput,
  query,
  type SDKMessage,
  type SDKUserMessage,
  tool,
} from "agent-sdk-under-test";
import { z } from "zod";

const weather = tool(
  "get_weather",
  "Gets the weather of a city",
  { city: z.string(), days: z.number().optional() },
  async (args) => ({ content: [{ type: "text", text: `Sunny in ${args.city}` }] }),
);
const server = createSdkMcpServer({ name: "weather", version: "1.0.0", tools: [weather] });

const audit: HookCallback = async (input, toolUseID, { signal }) => {
  if (input.hook_event_name === "PreToolUse") {
    const pre = input as PreToolUseHookInput;
    if (signal.aborted || toolUseID === undefined) return {};
    if (pre.tool_name === "Bash")
      return {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "no shell here",
        },
      };
  }
  return { continue: true };
};

const canUseTool: CanUseTool = async (toolName, input, { signal, suggestions }) => {
  if (toolName === "Bash" || signal.aborted) return { behavior: "deny", message: "no shell" };
  return { behavior: "allow", updatedInput: input, updatedPermissions: suggestions ?? [] };
};

async function* chat(): AsyncGenerator<SDKUserMessage> {
  yield {
    type: "user",
    message: { role: "user", content: "What is the weather in Oslo?" },
    parent_tool_use_id: null,
    session_id: "",
  };
}

function describe(message: SDKMessage): string {
  switch (message.type) {
    case "system":
      return message.subtype === "init"
        ? `${message.session_id} ${message.model} ${message.permissionMode} ${message.tools.length} ${message.mcp_servers.map((s) => `${s.name}:${s.status}`).join(",")}`
        : "";
    case "assistant":
      return `${message.session_id} ${message.parent_tool_use_id ?? ""}`;
    case "stream_event":
      return message.event.type;
    case "result":
      return `${message.subtype} ${message.is_error} ${message.num_turns} ${message.total_cost_usd} ${message.duration_ms} ${message.usage.input_tokens} ${message.session_id} ${message.subtype === "success" ? `${message.result} ${JSON.stringify(message.structured_output)}` : ""}`;
    default:
      return message.type;
  }
}

/** The host: one streamed conversation with every option hosts use, then a resume. */
export async function host(log: (line: string) => void): Promise<void> {
  const abortController = new AbortController();
  const options: Options = {
    cwd: "/srv/project",
    model: "claude-sonnet-4-5",
    fallbackModel: "claude-haiku-4-5",
    systemPrompt: { type: "preset", preset: "claude_code", append: "Answer briefly." },
    allowedTools: ["Read", "Grep", "mcp__weather__get_weather"],
    disallowedTools: ["WebFetch", "Bash(rm:*)"],
    permissionMode: "acceptEdits",
    canUseTool,
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [audit], timeout: 30 }] },
    mcpServers: {
      weather: server,
      files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem"] },
      remote: { type: "http", url: "https://mcp.example.com/mcp", headers: { a: "b" } },
      legacy: { type: "sse", url: "https://mcp.example.com/sse" },
    },
    agents: {
      reviewer: {
        description: "Reviews code",
        prompt: "You review.",
        tools: ["Read"],
        model: "sonnet",
      },
    },
    maxTurns: 8,
    maxBudgetUsd: 0.5,
    includePartialMessages: true,
    outputFormat: {
      type: "json_schema",
      schema: { type: "object", properties: { answer: { type: "string" } } },
    },
    settingSources: ["project"],
    additionalDirectories: ["/srv/shared"],
    env: { ...process.env, DEBUG: "1" },
    abortController,
    stderr: (data) => log(data),
  };
  const q = query({ prompt: chat(), options });
  await q.setPermissionMode("default");
  await q.setModel("claude-opus-4-1");
  for (const c of await q.supportedCommands()) log(`${c.name} ${c.description} ${c.argumentHint}`);
  for (const s of await q.mcpServerStatus()) log(`${s.name} ${s.status}`);
  let sessionId: string | undefined;
  for await (const message of q) {
    log(describe(message));
    if (message.type === "result") sessionId = message.session_id;
    if (message.type === "assistant" && message.parent_tool_use_id === null) await q.interrupt();
  }
  const resumed = query({
    prompt: "And tomorrow?",
    options: { ...(sessionId ? { resume: sessionId } : {}), forkSession: true },
  });
  for await (const message of resumed) log(describe(message));
  const continued = query({ prompt: "More.", options: { continue: true } });
  await continued.return(undefined);
}
