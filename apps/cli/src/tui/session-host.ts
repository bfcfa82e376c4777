import { resumable } from "./resumable.js";
import type { CommandQueue, Opened } from "./opened.js";
import { memoryActions } from "./memory-host.js";
import type { ScreenHost } from "./ui.js";
import { add, initialView, short } from "./view.js";

const ZERO = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 };

/**
 * The session actions of the UI's own commands: `/clear` and `/resume` replace the session
 * shown (the old one is closed and stays on disk); `/memory` edits an instruction file
 * (`memoryActions`). What fails becomes a notice in the transcript; nothing here throws.
 */
export function hostActions(
  opened: Opened,
  queue: CommandQueue,
  env: Readonly<Record<string, string | undefined>>,
): ScreenHost {
  const { store, slot, engine } = opened;
  const root = () => slot.session.projectRoot;
  const notice = (text: string) =>
    store.change((v) => add(v, { kind: "notice", level: "warning", text }));
  const fresh = () =>
    store.change((v) =>
      add(
        {
          ...initialView({ ...opened.start, usage: ZERO }),
          commands: v.commands,
          trusted: v.trusted,
        },
        { kind: "header", header: opened.header },
      ),
    );
  const switchTo = (id: string | undefined, before: string) => {
    const previous = slot.session.id;
    queue.detach();
    void (async () => {
      await slot.leave();
      const session = await slot.open(id);
      queue.attach(session);
      store.change((v) =>
        add(v, { kind: "info", text: `${before} (the last one: zeng --resume ${previous})` }),
      );
    })().catch((error: Error) => notice(`could not open the session: ${error.message}`));
  };
  return {
    clear: () => {
      fresh();
      switchTo(undefined, "New session");
    },
    sessions: async () => {
      const list = await resumable(engine, root()).catch(() => []);
      return list
        .filter((s) => s.id !== slot.session.id)
        .slice(0, 15)
        .map((s) => ({
          value: s.id,
          label: `${new Date(s.updatedAt).toISOString().slice(0, 16).replace("T", " ")}  ${short(s.title ?? s.id)} (${s.messageCount} messages)`,
        }));
    },
    resume: (id) => {
      fresh();
      switchTo(id, "Resumed");
    },
    ...memoryActions(opened, env),
  };
}
