import type { Engine } from "@z-engine/engine";

/** The folder's stored sessions worth resuming (some messages), newest first. */
export async function resumable(engine: Engine, root: string) {
  return (await engine.listSessions()).filter((s) => s.projectRoot === root && s.messageCount > 0);
}
