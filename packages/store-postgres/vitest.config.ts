import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "store-postgres",
    // A real Postgres server: the timeout is a backstop for a loaded machine, not a measure.
    testTimeout: 30_000,
    globalSetup: ["src/test-support/global-setup.ts"],
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
