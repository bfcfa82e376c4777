import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "verify",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
