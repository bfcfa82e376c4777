import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "worker",
    // Worker processes, Postgres and Redis: the timeout is a backstop for a loaded machine.
    testTimeout: 60_000,
    globalSetup: ["src/test-support/global-setup.ts"],
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
