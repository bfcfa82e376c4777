import { spawnSync } from "node:child_process";
import { delimiter, dirname, join } from "node:path";
import { findServerBinary } from "../binary.js";

/** A language server found on this machine (its environment), or why its tests skip. */
export type NativeServer =
  | { readonly env: Record<string, string | undefined>; readonly binary: string }
  | { readonly env: null; readonly reason: string };

const INSTALL_HINT = "scripts/install-language-servers.sh installs it (root with apt-get)";

/**
 * Whether `binary --version` (gopls: `version`) runs: rustup's `rust-analyzer` proxy is
 * there without the component, and runs only when it can fall back to one on PATH.
 */
function runs(binary: string, env: Record<string, string | undefined>): boolean {
  const args = binary.endsWith("/gopls") ? ["version"] : ["--version"];
  const probe = spawnSync(binary, args, { env, stdio: "ignore", timeout: 10_000 });
  return probe.status === 0;
}

/**
 * A server of the ones Debian ships (clangd, gopls, rust-analyzer) that runs here, with an
 * environment whose PATH finds it first, and finds the `needs` programs it runs (go,
 * cargo); or the reason its tests skip. process.env is left alone.
 */
export async function nativeServer(command: string, needs: string[] = []): Promise<NativeServer> {
  const path = process.env.PATH ?? "";
  const env = { ...process.env };
  for (const need of needs)
    if ((await findServerBinary(need, "/", env)) === null)
      return { env: null, reason: `${need} is not installed; ${INSTALL_HINT}` };
  const folders = path.split(delimiter).filter((d) => d !== "");
  for (const folder of folders) {
    const binary = join(folder, command);
    if ((await findServerBinary(binary, "/", env)) === null || !runs(binary, env)) continue;
    return { env: { ...env, PATH: `${dirname(binary)}${delimiter}${path}` }, binary };
  }
  return { env: null, reason: `${command} is not installed (or does not run); ${INSTALL_HINT}` };
}

/** A C project: `add` declared in a header, defined in one file, called in another. */
export const C_FILES: Record<string, string> = {
  "compile_flags.txt": "-std=c11\n-Wall\n",
  "greet.h": "#ifndef GREET_H\n#define GREET_H\nint add(int a, int b);\n#endif\n",
  "greet.c": '#include "greet.h"\n\nint add(int a, int b) {\n  return a + b;\n}\n',
  "main.c":
    '#include "greet.h"\n\nint main(void) {\n  int total = add(1, 2);\n  return add(total, 3);\n}\n',
};

/** A Go module: `Greet` defined in one file, called in another. */
export const GO_FILES: Record<string, string> = {
  "go.mod": "module example.com/hello\n\ngo 1.19\n",
  "greet.go":
    'package main\n\n// Greet says hello.\nfunc Greet(name string) string {\n\treturn "hello " + name\n}\n',
  "main.go":
    'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(Greet("world"))\n\tfmt.Println(Greet("again"))\n}\n',
};

/** A Cargo crate: `add` defined in a module, called from main (no std needed). */
export const RUST_FILES: Record<string, string> = {
  "Cargo.toml": '[package]\nname = "hello"\nversion = "0.1.0"\nedition = "2021"\n',
  "src/greet.rs": "/// Adds two numbers.\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
  "src/main.rs":
    "mod greet;\n\nfn main() {\n    let total = greet::add(1, 2);\n    let _ = greet::add(total, 3);\n}\n",
};
