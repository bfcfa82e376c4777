import { describe, expect, it } from "vitest";
import { languageIdOf, lspServerSpecs, specsForFile } from "./specs.js";

describe("lspServerSpecs", () => {
  it("a configured rust-analyzer replaces the built-in and still waits for its status", () => {
    const specs = lspServerSpecs({
      "rust-analyzer": { command: "/opt/ra/rust-analyzer", extensions: ["rs"] },
      zig: { command: "zls", extensions: [".zig"] },
    });
    const [rust] = specsForFile(specs, "/p/src/main.rs");
    expect(rust).toEqual({
      name: "rust-analyzer",
      reportsStatus: true,
      command: "/opt/ra/rust-analyzer",
      args: [],
      extensions: [".rs"],
    });
    expect(specsForFile(specs, "/p/main.zig")[0]).toEqual({
      name: "zig",
      command: "zls",
      args: [],
      extensions: [".zig"],
    });
    expect(specs.filter((s) => s.name === "rust-analyzer")).toHaveLength(1);
  });

  it("routes C, Go and Rust files to clangd, gopls and rust-analyzer with their language ids", () => {
    const specs = lspServerSpecs({});
    const route = (path: string) => [specsForFile(specs, path)[0]?.name, languageIdOf(path)];
    expect(route("/p/a.c")).toEqual(["clangd", "c"]);
    expect(route("/p/a.HPP")).toEqual(["clangd", "cpp"]);
    expect(route("/p/a.go")).toEqual(["gopls", "go"]);
    expect(route("/p/a.rs")).toEqual(["rust-analyzer", "rust"]);
  });
});
