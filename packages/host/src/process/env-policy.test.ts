import { describe, expect, it } from "vitest";
import { buildEnvironment } from "./env-policy.js";

describe("buildEnvironment", () => {
  const base = {
    PATH: "/bin",
    HOME: "/home/u",
    OPENAI_API_KEY: "k",
    npm_token: "t",
    AWS_SECRET_ACCESS_KEY: "s",
    DB_PASSWORD: "p",
    LANG: "C",
    UNSET: undefined,
  };

  it("inherits everything but secret-looking names, case-insensitively", () => {
    const env = buildEnvironment({}, base);
    expect(Object.keys(env).sort()).toEqual([
      "GIT_PAGER",
      "GIT_TERMINAL_PROMPT",
      "HOME",
      "LANG",
      "NO_UPDATE_NOTIFIER",
      "PAGER",
      "PATH",
      "npm_config_update_notifier",
    ]);
  });

  it("keeps allowed names, applies set, and lets the request add and remove", () => {
    const env = buildEnvironment({ allow: ["npm_token"], set: { CI: "1" } }, base, {
      LANG: undefined,
      EXTRA: "e",
    });
    expect(env.npm_token).toBe("t");
    expect(env.CI).toBe("1");
    expect(env.EXTRA).toBe("e");
    expect(env.LANG).toBeUndefined();
  });

  it("starts from PATH and HOME only when not inheriting, and treats patterns literally but for *", () => {
    const env = buildEnvironment({ inherit: false, deny: ["A.B"] }, { ...base, AXB: "x" });
    expect(env.PATH).toBe("/bin");
    expect(env.LANG).toBeUndefined();
    const literal = buildEnvironment({ deny: ["A.B"] }, { AXB: "x", "A.B": "y" });
    expect(literal.AXB).toBe("x");
    expect(literal["A.B"]).toBeUndefined();
  });
});
