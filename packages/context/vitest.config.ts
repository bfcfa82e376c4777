import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "context",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
