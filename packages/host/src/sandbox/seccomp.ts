/**
 * A seccomp filter (classic BPF, as bubblewrap's `--seccomp FD` takes it) that keeps a
 * sandboxed command from opening Unix-domain sockets. With the network off the command has
 * a network namespace of its own, which already cuts abstract Unix sockets and every IP
 * address of the host; but a socket *file* on the host (`/run/docker.sock`, an ssh or gpg
 * agent under `/tmp` or the home folder, a database's socket) is reached through the file
 * system, where a read-only mount does not stop `connect`. Sockets can live anywhere, so no
 * set of private folders closes it; refusing `socket(AF_UNIX, ...)` does. `socketpair` stays
 * allowed (it makes two connected ends, reaching nothing), so pipes between a program and
 * its children keep working. `io_uring_setup` is refused too, since io_uring can open and
 * connect sockets without the `socket` system call.
 */

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;
const ENOSYS = 38;
const AF_UNIX = 1;
/** socketcall(2)'s SYS_SOCKET. */
const SYS_SOCKET = 1;
const X32_BIT = 0x40000000;

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
/** Offsets in `struct seccomp_data`: nr, arch, then args[0] (its low 32 bits, little-endian). */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

/** One architecture's system call numbers (null: it has no such call). */
interface ArchCalls {
  readonly audit: number;
  readonly socket: number;
  readonly socketcall: number | null;
  readonly ioUringSetup: number;
  readonly x32: boolean;
}

const X86_64: ArchCalls = {
  audit: 0xc000003e,
  socket: 41,
  socketcall: null,
  ioUringSetup: 425,
  x32: true,
};
const I386: ArchCalls = {
  audit: 0x40000003,
  socket: 359,
  socketcall: 102,
  ioUringSetup: 425,
  x32: false,
};
const AARCH64: ArchCalls = {
  audit: 0xc00000b7,
  socket: 198,
  socketcall: null,
  ioUringSetup: 425,
  x32: false,
};
const ARM: ArchCalls = {
  audit: 0x40000028,
  socket: 281,
  socketcall: null,
  ioUringSetup: 425,
  x32: false,
};

/** The native and the compatibility (32-bit) architecture of each supported `process.arch`. */
const ARCHES: Readonly<Record<string, readonly ArchCalls[]>> = {
  x64: [X86_64, I386],
  arm64: [AARCH64, ARM],
};

type Target = string | number;
interface Op {
  readonly code: number;
  readonly k: number;
  readonly jt?: Target;
  readonly jf?: Target;
  readonly label?: string;
}

/** The checks for one architecture, starting at label `arch-<audit>`. */
function archBlock(arch: ArchCalls): Op[] {
  const at = `arch-${arch.audit}`;
  const ops: Op[] = [{ code: LD_W_ABS, k: NR, label: at }];
  if (arch.x32) ops.push({ code: JGE_K, k: X32_BIT, jt: "eperm", jf: 0 });
  ops.push({ code: JEQ_K, k: arch.socket, jt: `${at}-domain`, jf: 0 });
  ops.push({ code: JEQ_K, k: arch.ioUringSetup, jt: "enosys", jf: 0 });
  if (arch.socketcall !== null)
    ops.push({ code: JEQ_K, k: arch.socketcall, jt: `${at}-call`, jf: 0 });
  ops.push({ code: RET_K, k: RET_ALLOW });
  ops.push({ code: LD_W_ABS, k: ARG0, label: `${at}-domain` });
  ops.push({ code: JEQ_K, k: AF_UNIX, jt: "eperm", jf: "allow" });
  if (arch.socketcall !== null) {
    // socketcall(SYS_SOCKET, args): the domain is in memory, out of a filter's reach.
    ops.push({ code: LD_W_ABS, k: ARG0, label: `${at}-call` });
    ops.push({ code: JEQ_K, k: SYS_SOCKET, jt: "eperm", jf: "allow" });
  }
  return ops;
}

/** Resolves labels to relative jumps (each under 256) and encodes `struct sock_filter`s. */
function assemble(ops: readonly Op[]): Buffer {
  const labels = new Map<string, number>();
  ops.forEach((op, i) => {
    if (op.label) labels.set(op.label, i);
  });
  const out = Buffer.alloc(ops.length * 8);
  const jump = (from: number, target: Target | undefined): number => {
    if (target === undefined || typeof target === "number") return target ?? 0;
    const to = labels.get(target);
    if (to === undefined || to <= from || to - from - 1 > 255)
      throw new Error(`bad jump to ${target}`);
    return to - from - 1;
  };
  ops.forEach((op, i) => {
    out.writeUInt16LE(op.code, i * 8);
    out.writeUInt8(jump(i, op.jt), i * 8 + 2);
    out.writeUInt8(jump(i, op.jf), i * 8 + 3);
    out.writeUInt32LE(op.k >>> 0, i * 8 + 4);
  });
  return out;
}

/**
 * The filter program for `arch` (a `process.arch` value), or null where it is not
 * supported (only x64 and arm64 are, each with its 32-bit compatibility calls; a call made
 * under any other architecture kills the process). Pure; never throws.
 */
export function unixSocketFilter(arch: string = process.arch): Buffer | null {
  const arches = ARCHES[arch];
  if (!arches) return null;
  const ops: Op[] = [{ code: LD_W_ABS, k: ARCH }];
  for (const calls of arches)
    ops.push({ code: JEQ_K, k: calls.audit, jt: `arch-${calls.audit}`, jf: 0 });
  ops.push({ code: RET_K, k: RET_KILL_PROCESS });
  for (const calls of arches) ops.push(...archBlock(calls));
  ops.push({ code: RET_K, k: RET_ALLOW, label: "allow" });
  ops.push({ code: RET_K, k: RET_ERRNO | EPERM, label: "eperm" });
  ops.push({ code: RET_K, k: RET_ERRNO | ENOSYS, label: "enosys" });
  return assemble(ops);
}
