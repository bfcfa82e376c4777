import { describe, expect, it } from "vitest";
import { diffTexts, revertHunks } from "./line-diff.js";

// The Changes screen's diff and the per-hunk revert: hunks with context, counts, and the
// reverse of any subset of hunks.

const lines = (n: number, tag = "line") => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`);

describe("diffTexts", () => {
  it("finds one hunk with three lines of context and counts its lines", () => {
    const old = `${lines(10).join("\n")}\n`;
    const now = old.replace("line 5\n", "line five\nline 5b\n");
    const diff = diffTexts(old, now);
    expect(diff.added).toBe(2);
    expect(diff.removed).toBe(1);
    expect(diff.hunks).toHaveLength(1);
    const [hunk] = diff.hunks;
    expect(hunk).toMatchObject({ index: 0, oldStart: 2, oldLines: 7, newStart: 2, newLines: 8 });
    expect(hunk?.lines.map((l) => `${l.kind}${l.text}`)).toEqual([
      " line 2",
      " line 3",
      " line 4",
      "-line 5",
      "+line five",
      "+line 5b",
      " line 6",
      " line 7",
      " line 8",
    ]);
  });

  it("keeps far-apart changes in separate hunks and merges near ones", () => {
    const old = `${lines(40).join("\n")}\n`;
    const far = old.replace("line 3\n", "x\n").replace("line 30\n", "y\n");
    expect(diffTexts(old, far).hunks).toHaveLength(2);
    const near = old.replace("line 3\n", "x\n").replace("line 8\n", "y\n");
    expect(diffTexts(old, near).hunks).toHaveLength(1);
  });

  it("treats an added and a deleted file as one hunk each", () => {
    expect(diffTexts("", "a\nb\n")).toMatchObject({ added: 2, removed: 0 });
    expect(diffTexts("a\nb\n", "")).toMatchObject({ added: 0, removed: 2 });
    expect(diffTexts("same\n", "same\n").hunks).toEqual([]);
  });

  it("shows a missing final newline as a change", () => {
    expect(diffTexts("a\n", "a").hunks).toHaveLength(1);
  });
});

describe("revertHunks", () => {
  it("takes back exactly the chosen hunk", () => {
    const old = `${lines(40).join("\n")}\n`;
    const now = old.replace("line 3\n", "x\n").replace("line 30\n", "y\n");
    const first = revertHunks(old, now, [0]);
    expect(first).toBe(old.replace("line 30\n", "y\n"));
    expect(revertHunks(old, now, [1])).toBe(old.replace("line 3\n", "x\n"));
    expect(revertHunks(old, now, [0, 1])).toBe(old);
    expect(revertHunks(old, now, [])).toBe(now);
    expect(revertHunks(old, now, [7])).toBe(now);
  });

  it("holds for random edits: reverting every hunk gives the old text, none the new", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const old = lines(Math.floor(random() * 30), "l");
      const now = [...old];
      for (let edit = 0; edit < 1 + Math.floor(random() * 5); edit++) {
        const at = Math.floor(random() * (now.length + 1));
        const what = random();
        if (what < 0.33) now.splice(at, 0, `new ${round}.${edit}`);
        else if (what < 0.66) now.splice(at, 1);
        else now.splice(at, 1, `changed ${round}.${edit}`);
      }
      const a = old.length ? `${old.join("\n")}\n` : "";
      const b = random() < 0.2 ? now.join("\n") : now.length ? `${now.join("\n")}\n` : "";
      const diff = diffTexts(a, b);
      const all = diff.hunks.map((h) => h.index);
      expect(revertHunks(a, b, all)).toBe(a);
      expect(revertHunks(a, b, [])).toBe(b);
      // Reverting one hunk leaves one hunk fewer.
      if (all.length > 1)
        expect(diffTexts(a, revertHunks(a, b, [0])).hunks).toHaveLength(all.length - 1);
    }
  });

  it("falls back to one replacement for texts too far apart, still reversible", () => {
    const a = `${lines(5000, "a").join("\n")}\n`;
    const b = `${lines(5000, "b").join("\n")}\n`;
    const diff = diffTexts(a, b);
    expect(diff.added).toBe(5000);
    expect(diff.removed).toBe(5000);
    expect(
      revertHunks(
        a,
        b,
        diff.hunks.map((h) => h.index),
      ),
    ).toBe(a);
  });
});
