import { describe, expect, it } from "vitest";
import * as ed from "./editor.js";

describe("the editor", () => {
  it("inserts pasted CRLF text as lines and moves between lines keeping the column", () => {
    const e = ed.insert(ed.EMPTY, "abc\r\nde\rfghij");
    expect(e.text).toBe("abc\nde\nfghij");
    const up = ed.vertical(e, -1);
    expect(up?.cursor).toBe(6); // end of "de": the column is clamped to the shorter line
    expect(ed.vertical({ ...e, cursor: 1 }, -1)).toBeUndefined();
    expect(ed.vertical(e, 1)).toBeUndefined();
    expect(ed.home(e).cursor).toBe(7);
  });

  it("deletes words and lines and replaces the word at the cursor", () => {
    const e = ed.editorOf("fix @src/au");
    expect(ed.wordAtCursor(e)).toEqual({ word: "@src/au", start: 4 });
    expect(ed.replaceWord(e, "@src/auth.ts ").text).toBe("fix @src/auth.ts ");
    expect(ed.deleteWord(e).text).toBe("fix ");
    expect(ed.killToStart(e).text).toBe("");
    expect(ed.backspace(ed.EMPTY)).toBe(ed.EMPTY);
  });
});
