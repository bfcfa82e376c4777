import type { Ecosystem, FoundCheck } from "../ecosystem.js";
import { ancestorFolders } from "../ecosystem.js";
import { readToml, tableAt } from "../toml.js";

const cargo = (name: string, kind: FoundCheck["kind"], command: string): FoundCheck => ({
  ecosystem: "cargo",
  name,
  kind,
  command,
});

/**
 * Cargo: a workspace root or a standalone crate gets test, build, check (typecheck),
 * clippy (lint) and fmt (format), with `--workspace` at a workspace root; a member crate
 * below a workspace root gets only its own `cargo test`, so that selection can pick it.
 */
export const cargoEcosystem: Ecosystem = {
  name: "cargo",
  applies: (folder) => folder.files.has("Cargo.toml"),
  async discover(ctx) {
    const manifest = await readToml(ctx, "Cargo.toml");
    if (manifest === undefined) return [];
    const isWorkspace = tableAt(manifest, "workspace") !== undefined;
    const isPackage = tableAt(manifest, "package") !== undefined;
    if (!isWorkspace && !isPackage) return [];
    if (!isWorkspace) {
      for (const folder of ancestorFolders(ctx).filter((f) => f.files.has("Cargo.toml"))) {
        const above = await readToml(ctx, "Cargo.toml", folder);
        if (tableAt(above, "workspace") !== undefined) return [cargo("test", "test", "cargo test")];
      }
    }
    const all = isWorkspace ? " --workspace" : "";
    return [
      cargo("test", "test", `cargo test${all}`),
      cargo("build", "build", `cargo build${all}`),
      cargo("check", "typecheck", `cargo check${all} --all-targets`),
      cargo("clippy", "lint", `cargo clippy${all} --all-targets`),
      cargo("fmt", "format", "cargo fmt --all --check"),
    ];
  },
};
