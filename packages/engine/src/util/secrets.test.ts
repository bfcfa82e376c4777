import { buildEnvironment } from "@z-engine/host";
import { describe, expect, it } from "vitest";
import {
  createRedactor,
  encodedForms,
  isProviderKeyVariable,
  isSecretVariable,
  REDACTED,
  scrubbedEnvironment,
} from "./secrets.js";

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

  it("redacts the key's base64 and base64url forms at any alignment, also wrapped across lines", () => {
    const key = "sk-ant-api03-Zz9+/_x-0123456789abcdefghij";
    const redactor = createRedactor([key]);
    for (const prefix of ["", "A", "AB", "ANTHROPIC_API_KEY=", "PATH=/usr/bin\0ZENGINE_API_KEY="]) {
      const plain = Buffer.from(`${prefix}${key}\0HOME=/home/u\0`);
      for (const encoded of [plain.toString("base64"), plain.toString("base64url")]) {
        const out = redactor.text(`found: ${encoded}`);
        expect([prefix, out.includes(REDACTED)]).toEqual([prefix, true]);
        const decoded = Buffer.from(
          out
            .replace(/^found: /, "")
            .split(REDACTED)
            .join(""),
          "base64",
        );
        expect(decoded.toString("latin1")).not.toContain(key.slice(4, 20));
      }
      // `base64` wraps at 76 columns.
      const wrapped = plain.toString("base64").replace(/(.{76})/g, "$1\n");
      expect(redactor.text(wrapped)).toContain(REDACTED);
    }
    expect(encodedForms("12345678")).toContain("MTIzNDU2Nz");
    expect(redactor.text("an ordinary line of text\nand another")).toBe(
      "an ordinary line of text\nand another",
    );
  });

  it("tells a model provider's key from other secrets", () => {
    for (const name of [
      "ZENGINE_API_KEY",
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_AUTH_TOKEN",
      "AZURE_OPENAI_KEY",
    ])
      expect([name, isProviderKeyVariable(name)]).toEqual([name, true]);
    for (const name of ["GITHUB_TOKEN", "DB_PASSWORD", "HOME"])
      expect([name, isProviderKeyVariable(name)]).toEqual([name, false]);
  });
});
