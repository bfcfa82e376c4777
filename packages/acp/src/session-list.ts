import type { ListSessionsRequest, ListSessionsResponse } from "@agentclientprotocol/sdk";
import type { Engine } from "@z-engine/engine";

/** Sessions per page of `session/list`. */
const PAGE = 50;

/**
 * `session/list`: the engine's stored sessions, newest first, of one folder when `cwd` is
 * given, 50 a page (the cursor is the offset). v1 chats (no folder) are left out. Never
 * rejects but for the store.
 */
export async function listSessions(
  engine: Engine,
  request: ListSessionsRequest,
): Promise<ListSessionsResponse> {
  const all = (await engine.listSessions()).filter(
    (s) => s.projectRoot !== null && (!request.cwd || s.projectRoot === request.cwd),
  );
  const start = Math.max(0, Number.parseInt(request.cursor ?? "0", 10) || 0);
  const page = all.slice(start, start + PAGE);
  return {
    sessions: page.map((s) => ({
      sessionId: s.id,
      cwd: s.projectRoot as string,
      title: s.title,
      updatedAt: new Date(s.updatedAt).toISOString(),
    })),
    ...(start + PAGE < all.length ? { nextCursor: String(start + PAGE) } : {}),
  };
}
