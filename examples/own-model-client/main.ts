import { createEngine } from "@z-engine/engine";
import { type ModelClient, type ModelEvent, newToolCallId } from "@z-engine/protocol";
import { createFixtureRepo } from "@z-engine/testkit";

// A model client of one's own: events ending in exactly one `stop` (or `error`). This one
// reads package.json (a tool call needs a fresh id), then answers once the result is back.
const myModel: ModelClient = {
  async *stream({ messages }): AsyncGenerator<ModelEvent> {
    const result = messages.at(-1)?.content.find((block) => block.type === "toolResult");
    if (result) yield { type: "textDelta", text: `Read it: ${JSON.stringify(result).length} B.` };
    else {
      const input = { file_path: "package.json" };
      yield { type: "toolCall", id: newToolCallId(), name: "Read", input };
    }
    yield { type: "stop", reason: result ? "endTurn" : "toolUse" };
  },
};

const repo = await createFixtureRepo({ files: { "package.json": '{ "name": "demo" }\n' } });
const engine = await createEngine({ ephemeral: true, clientFactory: () => myModel });
const session = await engine.createSession(repo.root);
const summary = await session.run("How big is package.json?");
console.log(summary.outcome); // completed
await engine.shutdown();
await repo.dispose();
