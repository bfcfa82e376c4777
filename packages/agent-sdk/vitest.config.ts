import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "agent-sdk",
    // Tests run real sessions against the fake provider over HTTP: the timeout is a backstop
    // for a loaded machine (tests wait on events), not a measure of speed.
    testTimeout: 30_000,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
