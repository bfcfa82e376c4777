/**
 * Arguments that make bash evaluate code inside an otherwise read-only command. Bash evaluates
 * array subscripts as arithmetic, and arithmetic expands `$(...)` in a subscript and evaluates
 * the values of variables it names (recursively): `test -v 'a[$(cmd)]'`, `[[ 'a[$(cmd)]' -eq 1 ]]`,
 * `[[ x -eq 1 ]]` with `x='a[$(cmd)]'` set earlier in the session, `echo $((x))`, `${b[x]}`.
 * `printf -v` assigns a shell variable (`printf -v PATH ...`), which changes later commands.
 */

/** Arithmetic expansions and parameter expansions with a subscript or an offset. */
const ARITHMETIC_WORD = /\$\(\(|\$\[|\$\{[^}]*[[:]/;
const ARITHMETIC_OPERATOR = /^-(eq|ne|lt|le|gt|ge)$/;
const INTEGER = /^[-+]?\d+$/;

/** True when bash may evaluate code (or assign a variable) while running these words. */
export function mayEvaluate(argv: readonly string[]): boolean {
  for (const w of argv) if (ARITHMETIC_WORD.test(w)) return true;
  switch (argv[0]) {
    case "test":
    case "[":
    case "[[":
      return testEvaluates(argv);
    case "printf":
      return argv.some((a, i) => i > 0 && /^-[A-Za-z]*v/.test(a));
    default:
      return false;
  }
}

/**
 * `-v NAME[SUB]` evaluates SUB in `test`, `[` and `[[`; in `[[`, the operands of `-eq` and the
 * other arithmetic comparisons are arithmetic expressions (`test` and `[` want integers).
 * `[[ ]]` and `[ ]` reach here as source text, so words are split on blanks.
 */
function testEvaluates(argv: readonly string[]): boolean {
  const tokens = argv.slice(1).flatMap((w) => w.split(/\s+/).filter((t) => t !== ""));
  const arithmetic = argv[0] === "[[";
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] ?? "";
    if ((t === "-v" || t === "-R") && tokens.slice(i + 1).some((x) => x.includes("["))) return true;
    if (arithmetic && ARITHMETIC_OPERATOR.test(t)) {
      if (!INTEGER.test(tokens[i - 1] ?? "") || !INTEGER.test(tokens[i + 1] ?? "")) return true;
    }
  }
  return false;
}
