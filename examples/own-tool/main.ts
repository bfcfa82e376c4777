import { createEngine } from "@z-engine/engine";
import { createFixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";
import { defineTool, textOutput } from "@z-engine/tools";
import { z } from "zod";

// A tool of one's own: a name, a description and a zod input schema the model sees, and a call.
const wordCount = defineTool({
  name: "WordCount",
  description: "Counts the words of a text.",
  inputSchema: z.strictObject({ text: z.string().describe("The text to count") }),
  isReadOnly: () => true,
  call: async ({ text }) => textOutput(`${text.split(/\s+/).filter(Boolean).length} words`),
});

const model = new ScriptedModel([
  reply.toolCall("WordCount", { text: "one two three" }),
  reply.text("Three words."),
]);
const repo = await createFixtureRepo({ files: { "README.md": "# demo\n" } });
const engine = await createEngine({
  ephemeral: true,
  clientFactory: () => model,
  tools: [wordCount],
});
const session = await engine.createSession(repo.root);
await session.run("How many words are in 'one two three'?");
console.log(JSON.stringify(model.requests[1]?.messages.at(-1)?.content)); // ..."3 words"...
await engine.shutdown();
await repo.dispose();
