import { describe, expect, it } from "vitest";
import { findKnownKeys } from "./key-formats.js";

describe("findKnownKeys", () => {
  it("finds each known format once, in order, naming it", () => {
    const gh = `ghp_${"a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}`;
    const anthropic = `sk-ant-api03-${"x".repeat(30)}`;
    const aws = "AKIAIOSFODNN7EXAMPLE";
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n-----END RSA PRIVATE KEY-----";
    const text = `token: ${gh}\nkey=${anthropic} again ${gh}\n${aws}\n${pem}\n`;
    expect(findKnownKeys(text)).toEqual([
      { value: gh, format: "GitHub token" },
      { value: anthropic, format: "Anthropic key" },
      { value: aws, format: "AWS access key id" },
      { value: pem, format: "private key" },
    ]);
  });

  it("leaves commit hashes, UUIDs and identifiers alone", () => {
    const text =
      "commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39\nid 123e4567-e89b-12d3-a456-426614174000\nsk-short task-runner AKIA";
    expect(findKnownKeys(text)).toEqual([]);
  });
});
