import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "cli",
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "test/**/*.test.ts"],
    // The end-to-end tests run dist/main.js as a child process: bundle it from src first.
    globalSetup: ["./scripts/bundle-before-tests.ts"],
    testTimeout: 30_000,
  },
});
