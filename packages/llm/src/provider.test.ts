import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectProvider } from "./provider.js";

describe("detectProvider", () => {
  it("gives hosts on anthropic.com the Anthropic format and everything else OpenAI-compatible", () => {
    const kind = (baseUrl?: string, forced?: "anthropic" | "openai") => {
      const r = detectProvider({ baseUrl, kind: forced });
      return r.ok ? [r.endpoint.kind, r.endpoint.host, r.endpoint.baseUrl] : r.message;
    };
    expect(kind()).toEqual(["anthropic", "api.anthropic.com", "https://api.anthropic.com"]);
    expect(kind("https://API.Anthropic.com/")).toEqual([
      "anthropic",
      "api.anthropic.com",
      "https://API.Anthropic.com",
    ]);
    expect(kind("https://openrouter.ai/api/v1")).toEqual([
      "openai",
      "openrouter.ai",
      "https://openrouter.ai/api/v1",
    ]);
    expect(kind("http://localhost:11434/v1")).toEqual([
      "openai",
      "localhost:11434",
      "http://localhost:11434/v1",
    ]);
    expect(kind("https://anthropic.com.evil.example/v1")?.[0]).toBe("openai");
    expect(kind("http://127.0.0.1:9999", "anthropic")?.[0]).toBe("anthropic");
    expect(kind("https://api.anthropic.com", "openai")?.[0]).toBe("openai");
    expect(kind(undefined, "openai")).toEqual([
      "openai",
      "api.openai.com",
      "https://api.openai.com/v1",
    ]);
    expect(kind("not a url")).toMatch(/is not a URL/);
    expect(kind("file:///etc/passwd")).toMatch(/http or https/);
  });
});

describe("start-up cost", () => {
  it("imports no provider SDK statically (only `import type` or a dynamic import)", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) files.push(path);
      }
    };
    walk(import.meta.dirname);
    const offenders = files.filter((f) =>
      /^import\s+(?!type\b)[^;]*from\s+["'](@anthropic-ai\/sdk|openai)(\/[^"']*)?["']/m.test(
        readFileSync(f, "utf8"),
      ),
    );
    expect(files.length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });
});
