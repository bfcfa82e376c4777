import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "web",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The browser tests serve dist/public: bundle the page from ui/ first.
    globalSetup: ["./scripts/bundle-before-tests.ts"],
    testTimeout: 30_000,
  },
});
