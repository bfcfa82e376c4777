import { appendFileSync, mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { historyFile, openHistory } from "./history.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "zeng-history-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it("keeps prompts per project, skips a damaged line and a repeat of the last prompt", () => {
  const h = openHistory(dir, "/a");
  h.add("one");
  h.add("one");
  h.add("two\nlines");
  appendFileSync(historyFile(dir, "/a"), '{"torn\n');
  openHistory(dir, "/b").add("other project");
  expect(openHistory(dir, "/a").entries).toEqual(["one", "two\nlines"]);
  expect(openHistory(dir, "/b").entries).toEqual(["other project"]);
});

it("keeps the prompt in memory when the data folder cannot be written", () => {
  const file = historyFile(dir, "/a");
  mkdirSync(dirname(file), { recursive: true });
  mkdirSync(file); // a folder where the file should be: every append fails
  const h = openHistory(dir, "/a");
  h.add("kept");
  expect(h.entries).toEqual(["kept"]);
});
