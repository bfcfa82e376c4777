import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import type { EditorFiles } from "@z-engine/engine";

/**
 * The engine's editor port over an ACP client's file system (`fs/read_text_file`,
 * `fs/write_text_file`), with only the methods the client offers; undefined when it offers
 * neither (the tools then use the disk). A request is cancelled (`$/cancel_request`) when the
 * tool call is.
 */
export function clientEditor(
  client: AgentContext,
  session: () => string,
  capabilities: ClientCapabilities,
): EditorFiles | undefined {
  const fs = capabilities.fs ?? {};
  if (!fs.readTextFile && !fs.writeTextFile) return undefined;
  return {
    ...(fs.readTextFile
      ? {
          readTextFile: async (path: string, signal: AbortSignal) =>
            (
              await client.request(
                "fs/read_text_file",
                { sessionId: session(), path },
                { cancellationSignal: signal },
              )
            ).content,
        }
      : {}),
    ...(fs.writeTextFile
      ? {
          writeTextFile: async (path: string, content: string, signal: AbortSignal) => {
            await client.request(
              "fs/write_text_file",
              { sessionId: session(), path, content },
              { cancellationSignal: signal },
            );
          },
        }
      : {}),
  };
}
