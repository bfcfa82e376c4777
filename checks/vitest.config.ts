import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "checks",
    include: ["**/*.test.ts"],
    // Each check parses every source file of the repository (about 1,000) with TypeScript:
    // 3-7 s alone on 2 cores, more beside the other projects' tests. The time grows with the
    // repository, not with a wait, so the limit is set to what a whole-suite run needs.
    testTimeout: 60_000,
  },
});
