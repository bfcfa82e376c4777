import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileArtifactSink } from "./artifacts.js";
import { tempDir } from "./test-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const text = (bytes: Uint8Array | undefined) =>
  bytes ? Buffer.from(bytes).toString("utf8") : undefined;

describe("FileArtifactSink", () => {
  it("stores text and bytes under stable references", async () => {
    const sink = new FileArtifactSink(join(dir, "artifacts"));
    const a = await sink.put("bash output.txt", "hello");
    const b = await sink.put("image.png", new Uint8Array([1, 2, 3]), { mediaType: "image/png" });
    expect(a).toMatchObject({
      name: "bash output.txt",
      bytes: 5,
      mediaType: "text/plain",
      truncated: false,
    });
    expect(a.ref).toMatch(/^artifact:[a-z0-9]+-[0-9a-f]{8}-bash-output\.txt$/);
    expect(b).toMatchObject({ bytes: 3, mediaType: "image/png" });
    expect(text(await sink.read(a.ref))).toBe("hello");
    expect([...((await sink.read(b.ref)) ?? [])]).toEqual([1, 2, 3]);
    // A fresh sink over the same folder reads the same references.
    expect(text(await new FileArtifactSink(join(dir, "artifacts")).read(a.ref))).toBe("hello");
  });

  it("gives the same name distinct references", async () => {
    const sink = new FileArtifactSink(join(dir, "artifacts"));
    const refs = await Promise.all(Array.from({ length: 20 }, (_, i) => sink.put("out", `n${i}`)));
    expect(new Set(refs.map((r) => r.ref)).size).toBe(20);
    for (const [i, ref] of refs.entries()) expect(text(await sink.read(ref.ref))).toBe(`n${i}`);
  });

  it("cuts data over the limit, without splitting a character", async () => {
    const sink = new FileArtifactSink(join(dir, "artifacts"), 5);
    const ref = await sink.put("t", "abcdé"); // é is two bytes: 6 bytes in all
    expect(ref).toMatchObject({ bytes: 4, truncated: true });
    expect(text(await sink.read(ref.ref))).toBe("abcd");
    const bin = await sink.put("b", new Uint8Array(10));
    expect(bin).toMatchObject({ bytes: 5, truncated: true });
  });

  it("keeps hostile names inside the folder", async () => {
    const sink = new FileArtifactSink(join(dir, "artifacts"));
    const ref = await sink.put("../../etc/passwd", "x");
    const ref2 = await sink.put("..", "y");
    expect(await readdir(join(dir, "artifacts"))).toHaveLength(2);
    expect(ref.ref).toMatch(/-passwd$/);
    expect(text(await sink.read(ref2.ref))).toBe("y");
  });

  it("reads unknown, malformed and escaping references as undefined", async () => {
    const sink = new FileArtifactSink(join(dir, "artifacts"));
    await writeFile(join(dir, "secret"), "s");
    for (const ref of [
      "artifact:../secret",
      "artifact:nope",
      "file:/etc/passwd",
      "artifact:",
      "artifact:a/b",
    ]) {
      expect(await sink.read(ref), ref).toBeUndefined();
    }
  });
});
