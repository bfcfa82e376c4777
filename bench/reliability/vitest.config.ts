import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "reliability",
    // Real zeng processes, git, MCP servers and Postgres: the timeout is a backstop for a
    // loaded machine (the harnesses wait on events), not a measure of speed.
    testTimeout: 120_000,
    include: ["src/**/*.test.ts"],
  },
});
