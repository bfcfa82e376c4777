import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { processAlive, waitForProcessExit } from "./processes.js";

describe("processAlive and waitForProcessExit", () => {
  it("see a running process, then its exit", async () => {
    const child = spawn("sleep", ["30"]);
    const pid = child.pid as number;
    expect(await processAlive(pid)).toBe(true);
    expect(await waitForProcessExit(pid, 50)).toBe(false);
    child.kill("SIGKILL");
    expect(await waitForProcessExit(pid)).toBe(true);
    expect(await processAlive(pid)).toBe(false);
  });
});
