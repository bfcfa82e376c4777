import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { FORMATS, main, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

// Requests go out over node:http by default and through Node's fetch with ZENGINE_HTTP=fetch
// (llm's nodeFetch): both must give the same run, tool call included.
describe.each(FORMATS)("the model requests over %s", (format) => {
  it.each([["node:http", {}] as const, ["Node's fetch", { ZENGINE_HTTP: "fetch" }] as const])(
    "complete a turn with a tool call through %s",
    async (_, env) => {
      w = await world({ format });
      w.provider.push(
        main(reply.toolCalls([{ name: "Glob", input: { pattern: "**/*.js" } }])),
        main(reply.text("Two files.", { usage: { input: 50, output: 3 } })),
      );
      const run = await w.run(["-p", "list the js files", "--output-format", "json"], env);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        outcome: "completed",
        usage: { input: 50, output: 3 },
      });
      expect(w.provider.requests.length).toBeGreaterThanOrEqual(2);
    },
  );
});
