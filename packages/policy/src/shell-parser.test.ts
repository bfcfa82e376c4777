import { describe, expect, it } from "vitest";
import { isReadOnlyCommand } from "./read-only.js";
import { MAX_COMMAND_LENGTH, parseCommand } from "./shell-parser.js";

const argvs = async (text: string) => (await parseCommand(text)).commands.map((c) => c.argv);

describe("parseCommand", () => {
  it("splits on every separator and nesting", async () => {
    expect(await argvs("a 1 && b 2 || c; d | e\nf & g")).toEqual([
      ["a", "1"],
      ["b", "2"],
      ["c"],
      ["d"],
      ["e"],
      ["f"],
      ["g"],
    ]);
    expect(await argvs("echo $(id) `whoami` <(ls) >(cat)")).toEqual([
      ["echo", "$(id)", "`whoami`", "<(ls)", ">(cat)"],
      ["id"],
      ["whoami"],
      ["ls"],
      ["cat"],
    ]);
    expect(await argvs("(cd a && make) ; { b; }")).toEqual([["cd", "a"], ["make"], ["b"]]);
  });
  it("removes quotes and escapes, and keeps expansions as written", async () => {
    expect(await argvs(`echo 'a b' "c d" e\\ f pre"mid"post "$HOME/x" $'\\n'`)).toEqual([
      ["echo", "a b", "c d", "e f", "premidpost", '"$HOME/x"', "$'\\n'"],
    ]);
  });
  it("records redirections and which of them write", async () => {
    const p = await parseCommand("cmd < in > out 2>> log &> both 2>&1 >| force >&2");
    expect(p.redirections).toEqual([
      { operator: "<", target: "in", writes: false },
      { operator: ">", target: "out", writes: true },
      { operator: "2>>", target: "log", writes: true },
      { operator: "&>", target: "both", writes: true },
      { operator: "2>&", target: "1", writes: false },
      { operator: ">|", target: "force", writes: true },
      { operator: ">&", target: "2", writes: false },
    ]);
  });
  it("opens wrappers and shell strings", async () => {
    expect(await argvs("nohup nice -n 5 timeout -s KILL 10 npm test")).toEqual([["npm", "test"]]);
    expect(await argvs("bash -c 'a && b'")).toEqual([["bash", "-c", "a && b"], ["a"], ["b"]]);
    expect(await argvs("xargs -I {} rm {}")).toEqual([
      ["xargs", "-I", "{}", "rm", "{}"],
      ["rm", "{}"],
    ]);
    expect(await argvs("command -v git")).toEqual([["command", "-v", "git"]]);
    // A script known only at run time becomes a command whose name is unknown (so it asks).
    expect(await argvs('bash -c "$SCRIPT"')).toEqual([["bash", "-c", '"$SCRIPT"'], ['"$SCRIPT"']]);
  });
  it("sets error for what it cannot read, and never throws", async () => {
    for (const text of ['echo "open', "a &&", "if then", "x )", "cat <<EOF\nno end"]) {
      const p = await parseCommand(text);
      expect(p.error, text).toBeDefined();
      expect(isReadOnlyCommand(p)).toBe(false);
    }
    const huge = await parseCommand(`echo ${"a".repeat(MAX_COMMAND_LENGTH)}`);
    expect(huge.error).toMatch(/longer than/);
    expect((await parseCommand("ls\0rm")).error).toMatch(/NUL/);
    const deep = await parseCommand(
      `bash -c "bash -c 'bash -c \\"bash -c \\\\\\"bash -c \\\\\\\\\\\\\\"ls\\\\\\\\\\\\\\"\\\\\\"\\"'"`,
    );
    expect(deep.commands.length).toBeGreaterThan(0);
  });
  it("parses many commands concurrently with the one shared parser", async () => {
    const texts = Array.from({ length: 50 }, (_, i) => `echo ${i} && ls dir${i}`);
    const all = await Promise.all(texts.map((t) => parseCommand(t)));
    for (const [i, p] of all.entries()) expect(p.commands[1]?.argv).toEqual(["ls", `dir${i}`]);
  });
  it("gives an empty line no commands", async () => {
    expect(await parseCommand("")).toEqual({ source: "", commands: [], redirections: [] });
  });
});
