import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  headlessBypass,
  main,
  onWasmCompile,
  runPreloaded,
  type World,
  world,
} from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

/**
 * A preloaded module that counts the WebAssembly modules compiled (tree-sitter's runtime and
 * each grammar) and tells, at exit, whether Node's ES module loader was loaded.
 */
const WATCHER = `
const { writeFileSync } = require("node:fs");
let compiled = 0;
${onWasmCompile("compiled++")}
process.on("exit", () => writeFileSync(process.env.ZENG_TEST_REPORT, JSON.stringify({
  compiled,
  esModuleLoader: process.moduleLoadList.includes("NativeModule internal/modules/esm/module_job"),
})));
`;

describe("zeng -p's module loading (scripts/bundle.mjs)", () => {
  it("loads tree-sitter for the shell policy and the repo map without Node's ES module loader", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(
      // A command the gate parses with tree-sitter; the second request starts the repo map.
      main(reply.toolCall("Bash", { command: 'git status --short && echo "$(pwd)"' })),
      main(reply.toolCall("Read", { file_path: w.repo.path("src/auth/token.js") })),
      main(reply.text("done")),
    );
    const { run, report } = await runPreloaded(w, WATCHER, headlessBypass("look"));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: "completed", text: "done" });
    const seen = JSON.parse(report) as {
      compiled: number;
      esModuleLoader: boolean;
    };
    // web-tree-sitter's runtime, the bash grammar and the project's JavaScript grammar.
    expect(seen.compiled).toBeGreaterThanOrEqual(3);
    expect(seen.esModuleLoader).toBe(false);
  });
});
