import { describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "./bubblewrap.js";
import { detectSandbox } from "./detect.js";

describe("detectSandbox", () => {
  it("finds bubblewrap working on Linux by running one command inside", async () => {
    const detection = await detectSandbox({ platform: "linux" });
    expect(detection.reason).toBeNull();
    expect(detection.backend).toBeInstanceOf(BubblewrapSandbox);
    (detection.backend as BubblewrapSandbox).dispose();
  });

  it("returns the reason when the backend cannot run", async () => {
    const broken = new BubblewrapSandbox({ bwrap: "/nonexistent/bwrap" });
    const detection = await detectSandbox({ backend: broken });
    expect(detection.backend).toBeNull();
    expect(detection.reason).toMatch(
      /the bubblewrap sandbox does not work here: .*(ENOENT|not found)/,
    );
    broken.dispose();
  });

  it("returns the reason on a platform without a backend", async () => {
    expect(await detectSandbox({ platform: "win32" })).toEqual({
      backend: null,
      reason: "no sandbox backend for platform win32",
    });
  });
});
