import { describe, expect, it } from "vitest";
import { ServerActivity } from "./activity.js";

describe("ServerActivity", () => {
  it("is busy while a progress token is open", async () => {
    const a = new ServerActivity(false);
    expect(a.busy).toBe(false);
    a.progress({ token: "load", value: { kind: "begin" } });
    a.progress({ token: "load", value: { kind: "report" } });
    expect(a.busy).toBe(true);
    const idle = a.whenIdle(10_000);
    a.progress({ token: "load", value: { kind: "end" } });
    expect(await idle).toBe(true);
  });

  it("counts a server that reports its status as busy until it says it is quiescent", async () => {
    const a = new ServerActivity(true);
    expect(a.busy).toBe(true);
    const idle = a.whenIdle(10_000);
    // A status without `quiescent`, and a progress token closing, do not end the wait.
    a.status({});
    a.progress({ token: 1, value: { kind: "begin" } });
    a.progress({ token: 1, value: { kind: "end" } });
    expect(a.busy).toBe(true);
    a.status({ quiescent: true });
    expect(await idle).toBe(true);
    a.status({ quiescent: false });
    expect(a.busy).toBe(true);
  });

  it("a wait ends, not idle, at its bound, on abort and when the server ends", async () => {
    const a = new ServerActivity(true);
    expect(await a.whenIdle(5)).toBe(false);
    const controller = new AbortController();
    const aborted = a.whenIdle(10_000, controller.signal);
    controller.abort();
    expect(await aborted).toBe(false);
    const ended = a.whenIdle(10_000);
    a.end();
    expect(await ended).toBe(false);
    expect(await a.whenIdle(10_000)).toBe(false);
  });
});
