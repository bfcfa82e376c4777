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
  it("loads tree-sitter for the shell policy without Node's ES module loader, and builds the repo map", async () => {
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
    // On this thread: web-tree-sitter's runtime and the bash grammar. A fresh project's map
    // builds in its worker (the JavaScript grammar compiles there), and reaches a request.
    expect(seen.compiled).toBeGreaterThanOrEqual(2);
    expect(seen.esModuleLoader).toBe(false);
    const withMap = w.provider.requests.filter((r) =>
      JSON.stringify(r.body).includes("Repository map:"),
    );
    expect(withMap.length).toBeGreaterThan(0);
  });
});
