import type { LspManager } from "./manager.js";
import { answer, type LspAnswer, type LspRequest } from "./operations.js";

/**
 * Answers one LSP query: starts the file's server when needed (a missing program, a failed
 * start or a server that crashed too often is an error answer, and remembered), then asks
 * it. Never rejects.
 */
export async function queryLsp(
  manager: LspManager,
  request: LspRequest,
  signal: AbortSignal,
): Promise<LspAnswer> {
  try {
    const server = await manager.serverFor(request.path);
    return await answer(server, manager.root, request, signal);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
