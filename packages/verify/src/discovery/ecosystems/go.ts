import type { Ecosystem } from "../ecosystem.js";

/** Go: every module (go.mod) gets `go test ./...`, `go build ./...` and `go vet ./...` (lint). */
export const goEcosystem: Ecosystem = {
  name: "go",
  applies: (folder) => folder.files.has("go.mod"),
  async discover() {
    return [
      { ecosystem: "go", name: "test", kind: "test", command: "go test ./..." },
      { ecosystem: "go", name: "build", kind: "build", command: "go build ./..." },
      { ecosystem: "go", name: "vet", kind: "lint", command: "go vet ./..." },
    ];
  },
};
