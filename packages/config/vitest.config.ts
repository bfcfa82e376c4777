import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "config",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
