import { randomBytes } from "node:crypto";
import { deflateSync, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflateOptions } from "./pack-writer.js";

/** `half` random bytes twice: the second copy matches the first from as far back as there is. */
const repeated = (half: number) => {
  const block = randomBytes(half);
  return Buffer.concat([block, block]);
};

describe("deflateOptions", () => {
  it("keeps zlib's window at the smallest size that reaches back over the whole object", () => {
    expect(deflateOptions(0)).toEqual({ level: 1, windowBits: 9, memLevel: 2 });
    expect(deflateOptions(250)).toEqual({ level: 1, windowBits: 9, memLevel: 2 });
    expect(deflateOptions(251)).toEqual({ level: 1, windowBits: 10, memLevel: 3 });
    expect(deflateOptions(32_506)).toEqual({ level: 1, windowBits: 15, memLevel: 8 });
    expect(deflateOptions(10_000_000)).toEqual({ level: 1, windowBits: 15, memLevel: 8 });
  });

  it("compresses as well as zlib's default window, and inflates with the default", () => {
    for (const half of [1, 20, 125, 126, 200, 1_000, 16_000, 16_253]) {
      const data = repeated(half);
      const sized = deflateSync(data, deflateOptions(data.length));
      const full = deflateSync(data, { level: 1 });
      expect(inflateSync(sized).equals(data), `${data.length} bytes`).toBe(true);
      // The second copy is found: a few bytes of back-references, not another `half` bytes.
      expect(sized.length, `${data.length} bytes`).toBeLessThanOrEqual(full.length + 2);
      expect(sized.length, `${data.length} bytes`).toBeLessThan(half * 1.1 + 32);
    }
  });
});
