import type { MessageId } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { withHistory } from "./open.js";
import { initialView, itemId } from "./view.js";

describe("a resumed session's view", () => {
  it("adds the stored conversation after what is on screen, with its rewind targets and state", () => {
    const usage = { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, costUsd: 0.5 };
    const onScreen = {
      id: itemId(),
      kind: "notice" as const,
      level: "warning" as const,
      text: "bad setting",
    };
    const view = withHistory(
      initialView({ mode: "ask", model: "m", usage: { ...usage, costUsd: 0 }, items: [onScreen] }),
      {
        messages: [
          { messageId: "msg_1" as MessageId, role: "user", text: "fix it" },
          { messageId: "msg_2" as MessageId, role: "assistant", text: "Fixed." },
        ],
        mode: "plan",
        model: "stored-model",
        title: "Fix it",
        totalUsage: usage,
        damagedLines: 0,
      },
      { continue: true, model: "flag-model" },
    );
    expect(view.items.map((i) => i.kind)).toEqual(["notice", "user", "assistant", "info"]);
    expect(view.items.at(-1)).toMatchObject({ text: "── resumed: Fix it (2 messages)" });
    expect(view.targets).toEqual([{ messageId: "msg_1", text: "fix it" }]);
    expect(view).toMatchObject({ mode: "plan", model: "flag-model", usage });
  });
});
