import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessBypass, main, runPreloaded, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

/**
 * A preloaded module that counts the functions zod's JIT compiles: zod builds an object
 * schema's parser with the `Function` constructor, and its code reads `payload.value`.
 */
const COUNTER = `
const { writeFileSync } = require("node:fs");
const Real = Function;
let compiled = 0;
globalThis.Function = new Proxy(Real, {
  construct(target, args) {
    if (String(args[args.length - 1]).includes("payload.value")) compiled++;
    return Reflect.construct(target, args);
  },
  apply(target, self, args) {
    if (String(args[args.length - 1]).includes("payload.value")) compiled++;
    return Reflect.apply(target, self, args);
  },
});
process.on("exit", () => writeFileSync(process.env.ZENG_TEST_REPORT, String(compiled)));
`;

describe("zeng -p parses with zod's interpreter (src/zod-interpreted.ts)", () => {
  it("compiles no schema parser through the Function constructor, in the start and a tool round", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "git status --short" })),
      main(reply.text("done")),
    );
    const { run, report } = await runPreloaded(w, COUNTER, headlessBypass("check"));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: "completed", text: "done" });
    expect(report).toBe("0");
  });
});
