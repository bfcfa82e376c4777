import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parseSections } from "./layer-file.js";
import { SettingsFile } from "./schema.js";

/** Settings as a file holds them: TOML text, and values TOML cannot write. */
const FILES = [
  "",
  '[catalog]\nsource = "off"\n',
  '[model]\nmain = "claude-opus-5"\neffort = "high"\nfallbacks = ["a", "b"]\nvision = false\n',
  '[permissions]\nmode = "plan"\nallow = ["Bash(npm test)", "Read"]\ndeny = ["Bash(rm -rf *)"]\n',
  '[provider]\nkind = "openai"\nbase_url = "http://localhost:8080/v1"\n[provider.headers]\nx = "y"\n',
  '[[hooks.PreToolUse]]\nmatcher = "Bash"\ncommand = "./check.sh"\ntimeout_secs = 5\n',
  `[mcp.servers.fs]\ncommand = "npx"\nargs = ["-y", "server"]\n[mcp.servers.web]\nurl = "\${URL}"\ntype = "http"\n`,
  '[lsp.servers.ts]\ncommand = "typescript-language-server"\nextensions = ["ts", ".tsx"]\n',
  '[[verification.checks]]\nid = "test"\nkind = "test"\ncommand = "npm test"\n',
  '[experimental]\nrepo_map = true\nrelevance = "shadow"\n[pricing.m]\ninput = 3\noutput = 15\n',
  '[shell]\nprogram = "/bin/zsh"\n[shell.sandbox]\nenabled = true\nextra_writable = ["/tmp"]\n',
  '[appearance]\ntheme = "dark"\n[catalog]\nsource = "https://example.com/models.json"\n',
  // Each of these fails: an unknown section or key, a wrong type, an empty text, a bad rule,
  // an MCP server with neither command nor url, a value out of range, an unknown enum value.
  "[nonsense]\na = 1\n",
  '[model]\nmain = "x"\ncolour = "red"\n',
  "[model]\nmain = 3\n",
  '[model]\nmain = ""\n',
  '[permissions]\nallow = ["Bash(unclosed"]\n',
  "[mcp.servers.x]\nenabled = true\n",
  "[context]\ncompact_at_percent = 0\n",
  '[provider]\nkind = "gemini"\n',
  '[catalog]\nsource = "ftp://example.com"\n',
  '[model]\nmain = "a"\n[catalog]\nsource = 1\n',
].map((text) => parse(text) as unknown);

const OTHER_VALUES = [
  null,
  undefined,
  "text",
  3,
  [],
  [{ model: {} }],
  Object.assign(Object.create(null), { model: { main: "x" } }),
  new (class Settings {
    model = { main: "x" };
  })(),
  { model: undefined },
  { model: null },
];

describe("parseSections", () => {
  it("gives what the whole file's schema gives, or undefined where that fails", () => {
    for (const value of [...FILES, ...OTHER_VALUES]) {
      const whole = SettingsFile.safeParse(value);
      expect(parseSections(value), JSON.stringify(value)).toEqual(
        whole.success ? whole.data : undefined,
      );
    }
  });

  it("passes every valid file and fails every invalid one of the corpus", () => {
    const passed = FILES.map((value) => parseSections(value) !== undefined);
    expect(passed).toEqual(FILES.map((_, i) => i < 12));
  });
});
