import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

// Issue 46 (`/compact` on request) and 47 (a compaction keeps the task and writes a ledger).

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const isTitle = (r: { system: readonly { text: string }[] }) =>
  JSON.stringify(r.system).includes("title");

describe("compaction on request, with its ledger", { timeout: 30_000 }, () => {
  it("/compact after a few turns compacts, quotes the open todos, and /context shows the ledger", async () => {
    h = await harness({
      files: { "a.txt": "one\n" },
      script: [],
      fastScript: [
        when(isTitle, reply.text("Title")),
        reply.text("Summary: the user is fixing the parser."),
      ],
      overrides: { mode: "bypass" },
    });
    h.model.push(
      reply.toolCall("TodoWrite", {
        todos: [
          { content: "Fix the parser", status: "in_progress", activeForm: "Fixing the parser" },
          { content: "Read the notes", status: "completed", activeForm: "Reading the notes" },
        ],
      }),
      reply.text("Started."),
      reply.text("Still on it."),
      reply.text("Carrying on."),
    );
    await h.session.run("Fix the parser, please.");
    await h.session.run("How is it going?");
    await h.session.idle();

    const compacted = await h.session.command("compact");
    expect(compacted.type === "output" && compacted.markdown).toMatch(
      /^Compacted: 6 messages became 2\.$/,
    );
    await h.session.run("Go on.");
    // What the model sees next: the summary first, then the new request.
    const next = h.model.requests.at(-1)?.messages ?? [];
    expect(next).toHaveLength(3);
    const summary = JSON.stringify(next[0]);
    expect(summary).toContain("Summary: the user is fixing the parser.");
    expect(summary).toContain("Open todo items, verbatim:\\n- [in_progress] Fix the parser");
    expect(summary).not.toContain("Read the notes");
    // The latest request ("How is it going?") was dropped too: it is quoted whole.
    expect(summary).toContain("<request>\\nHow is it going?\\n</request>");

    const context = await h.session.command("context");
    expect(context.type === "output" && context.markdown).toMatch(
      /Compactions:\n1\. \S+ manual: 5 messages \(msg_\S+…msg_\S+\), [\d,]+ → [\d,]+ tokens; the latest request quoted; 1 open todos quoted/,
    );
  });

  it("/compact says exactly why when it cannot", async () => {
    h = await harness({
      files: { "a.txt": "one\n" },
      script: [reply.text("Hi.")],
      fastScript: [when(isTitle, reply.text("Title"))],
    });
    const empty = await h.session.command("compact");
    expect(empty.type === "output" && empty.markdown).toBe(
      "Nothing was compacted: the conversation has no messages yet.",
    );
    await h.session.run("hello");
    await h.session.idle();
    // The fast model has no answer left: the summary fails, and the reply says so.
    const failed = await h.session.command("compact");
    expect(failed.type === "output" && failed.markdown).toMatch(
      /^Nothing was compacted: summary failed/,
    );
    h.model.push(reply.text("Again."));
    await h.session.run("again");
    expect(h.model.requests.at(-1)?.messages).toHaveLength(3);
  });
});
