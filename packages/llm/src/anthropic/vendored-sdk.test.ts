import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadAnthropicSdk } from "./client.js";

describe("the bundled part of the Anthropic SDK (#anthropic-sdk)", () => {
  it("makes a client with messages, and keeps the SDK's error classes and their names", async () => {
    const sdk = await loadAnthropicSdk();
    const client = new sdk.default({ apiKey: "k", baseURL: "http://127.0.0.1:9" });
    expect(typeof client.messages.create).toBe("function");
    expect(typeof client.messages.stream).toBe("function");
    expect(client.baseURL).toBe("http://127.0.0.1:9");
    for (const name of ["APIError", "RateLimitError", "OverloadedError", "APIConnectionError"]) {
      const error = sdk[name as keyof typeof sdk] as { name: string } | undefined;
      expect(error?.name, name).toBe(name);
    }
    expect(new sdk.AuthenticationError(401, undefined, "no", new Headers())).toBeInstanceOf(
      sdk.APIError,
    );
  });

  it("is the part llm uses, not the whole SDK (a quarter of its size)", () => {
    const bundle = fileURLToPath(import.meta.resolve("#anthropic-sdk"));
    expect(statSync(bundle).size).toBeLessThan(600_000);
  });
});
