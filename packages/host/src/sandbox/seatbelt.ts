import type { SandboxBackend, SandboxCommand, WrappedCommand } from "./backend.js";
import type { SandboxProfile } from "./profile.js";

function sbString(value: string): string {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/**
 * The seatbelt (SBPL) profile text for a sandbox profile. Pure and deterministic (golden
 * tested). Everything is allowed but file writes, which are allowed under the writable
 * folders and a few devices; the protected paths are denied after that (in SBPL the last
 * matching rule wins), and being path rules they hold for paths that do not exist yet. With
 * the network off, only localhost and Unix sockets inside the writable folders can be
 * reached.
 */
export function seatbeltProfileText(profile: SandboxProfile): string {
  const lines = [
    "(version 1)",
    "(allow default)",
    "(deny file-write*)",
    "(allow file-write*",
    ...profile.writable.map((dir) => `  (subpath ${sbString(dir)})`),
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty")',
    '  (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/ttys[0-9]+$"))',
  ];
  // An empty `(deny file-write*)` would deny every write, so the block needs at least one path.
  if (profile.readOnlyInside.length > 0) {
    lines.push(
      "(deny file-write*",
      ...profile.readOnlyInside.map((path) => `  (subpath ${sbString(path)})`),
      ")",
    );
  }
  if (!profile.network) {
    lines.push(
      "(deny network*)",
      '(allow network* (remote ip "localhost:*"))',
      '(allow network* (local ip "localhost:*"))',
      // Unix sockets only inside the writable folders: a socket file elsewhere (a docker,
      // ssh-agent or database socket) is the host's, and reaching it is reaching the host.
      ...profile.writable.map(
        (dir) => `(allow network* (remote unix-socket (subpath ${sbString(dir)})))`,
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** macOS: runs commands under `sandbox-exec -p <profile>`. Executing it needs a Mac. */
export class SeatbeltSandbox implements SandboxBackend {
  readonly name = "seatbelt";

  constructor(private readonly sandboxExec: string = "/usr/bin/sandbox-exec") {}

  /** Never throws; the profile travels on the command line. */
  wrap(command: SandboxCommand, profile: SandboxProfile): WrappedCommand {
    return {
      program: this.sandboxExec,
      args: ["-p", seatbeltProfileText(profile), command.program, ...command.args],
      release: () => {},
    };
  }
}
