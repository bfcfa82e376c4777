import { describe, expect, it } from "vitest";
import { unixSocketFilter } from "./seccomp.js";

// The filter's effect is proven end to end by the escape table (escapes.test.ts); these
// check the program's shape.
describe("unixSocketFilter", () => {
  it("builds a program of whole 8-byte instructions for x64 and arm64, ending in returns", () => {
    for (const arch of ["x64", "arm64"]) {
      const program = unixSocketFilter(arch);
      if (!program) throw new Error(`no filter for ${arch}`);
      expect(program.length % 8).toBe(0);
      expect(program.length / 8).toBeLessThan(64);
      // The last three instructions are returns: allow, EPERM, ENOSYS.
      const last = program.length / 8 - 1;
      expect([0, 1, 2].map((i) => program.readUInt16LE((last - i) * 8))).toEqual([6, 6, 6]);
      expect(program.readUInt32LE(last * 8 + 4)).toBe(0x00050000 + 38);
    }
  });

  it("is null on an architecture it does not know", () => {
    expect(unixSocketFilter("ia32")).toBeNull();
    expect(unixSocketFilter("riscv64")).toBeNull();
  });
});
