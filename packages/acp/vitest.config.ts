import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "acp",
    // Tests run real sessions, shells and child processes: the timeout is a backstop for a
    // loaded machine (tests wait on events), not a measure of speed.
    testTimeout: 30_000,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
