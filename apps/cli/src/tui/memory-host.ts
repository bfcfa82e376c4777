import { homedir } from "node:os";
import { instructionFiles, reloadInstructions } from "@z-engine/engine";
import { runEditor } from "./external-editor.js";
import type { HandOff } from "./hand-off.js";
import { memoryChoices, shownPath } from "./memory-choices.js";
import type { Opened } from "./opened.js";
import type { ScreenHost } from "./ui.js";
import { add } from "./view.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The `/memory` actions of the screen's host: the session's instruction files (the engine's
 * `instructionFiles`) as picker choices, and editing one: the user's editor on it (the
 * terminal handed over), then the session told to read them again at its next turn, and one
 * line saying so. What fails is a notice; nothing here throws.
 */
export function memoryActions(
  opened: Opened,
  env: Env,
): Pick<ScreenHost, "memoryFiles" | "editMemory"> {
  const { store, slot } = opened;
  const home = env.HOME || homedir();
  const line = (kind: "info" | "notice", text: string) =>
    store.change((v) =>
      add(v, kind === "info" ? { kind, text } : { kind, level: "warning", text }),
    );
  return {
    memoryFiles: async () => {
      const session = slot.session;
      try {
        return memoryChoices(await instructionFiles(session), session.projectRoot, home);
      } catch (error) {
        line("notice", `could not list the instruction files: ${(error as Error).message}`);
        return { choices: [], skipped: [] };
      }
    },
    editMemory: async (path: string, handOff: HandOff) => {
      const session = slot.session;
      const shown = shownPath(path, session.projectRoot, home);
      const outcome = await handOff(() => runEditor(path, env, session.projectRoot)).catch(
        (error: Error) => ({ ok: false as const, editor: "the editor", problem: error.message }),
      );
      try {
        reloadInstructions(session);
      } catch {
        // A session replaced meanwhile (`/clear`) reads its files afresh anyway.
      }
      if (outcome.ok) line("info", `Edited ${shown}: it applies from the next turn.`);
      else
        line(
          "notice",
          `The editor (${outcome.editor}) ${outcome.problem}; ${shown} is read again from the next turn.`,
        );
    },
  };
}
