import { buildEnvironment } from "@z-engine/host";
import { describe, expect, it } from "vitest";
import { createRedactor, isSecretVariable, REDACTED, scrubbedEnvironment } from "./secrets.js";

const ENV = {
  PATH: "/usr/bin",
  HOME: "/home/u",
  ZENGINE_API_KEY: "sk-zeng-123456789",
  ANTHROPIC_AUTH_TOKEN: "auth-token-123456",
  AZURE_OPENAI_KEY: "azure-key-123456",
  AWS_SECRET_ACCESS_KEY: "aws-secret-123456",
  NPM_TOKEN: "npm-token-123456",
  DB_PASSWORD: "db-password-123456",
  GITHUB_TOKEN: "ghp_123456789",
  ZENGINE_MODEL: "m",
  KEYBOARD: "us",
};

describe("secrets", () => {
  it("drops the same variables for hooks as the shell does, and the providers' own", () => {
    const scrubbed = scrubbedEnvironment(ENV);
    expect(scrubbed).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/u",
      ZENGINE_MODEL: "m",
      KEYBOARD: "us",
    });
    // Every variable the shell's own policy drops is a secret here too.
    const shell = buildEnvironment({}, ENV);
    for (const name of Object.keys(ENV))
      if (!(name in shell)) expect([name, isSecretVariable(name)]).toEqual([name, true]);
  });

  it("redacts known values in text and nested values, and leaves clean values as they are", () => {
    const redactor = createRedactor(["sk-zeng-123456789", "short"]);
    expect(redactor.text("key=sk-zeng-123456789;short")).toBe(`key=${REDACTED};short`);
    const clean = { a: [{ b: "nothing" }] };
    expect(redactor.value(clean)).toBe(clean);
    expect(redactor.value({ a: [{ b: "x sk-zeng-123456789" }], n: 1 })).toEqual({
      a: [{ b: `x ${REDACTED}` }],
      n: 1,
    });
  });
});
