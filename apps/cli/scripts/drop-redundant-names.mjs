// Drops the `__name(...)` calls of esbuild's `keepNames` that set a name JavaScript already
// gave (see the function). Why: the headless bundle's top level ran ~5,300 of them on every
// start of `zeng -p` (issue 18; README, "Start-up").

/**
 * `keepNames` gives every function and class a `__name(...)` call that sets its `name` to the
 * one in the source; at the top level of the headless bundle those calls (~5,300) cost 5-10 ms
 * of each start (README, "Start-up"). Where the bundle kept the source's name, the call sets
 * what JavaScript already set: a function declaration `function f` followed by
 * `__name(f, "f");`, and a class `class C` or `var C = class` (an anonymous class bound to `C`
 * is named `C` before its static blocks run) whose first member is
 * `static { __name(this, "C"); }` (no class here defines a static `name` member, which the
 * call would override; the build fails if one appears). Those calls are dropped; renamed
 * declarations (`f2` for the source's `f`) and expressions keep theirs.
 */
export function dropRedundantNames(code) {
  if (/\bstatic\s+(?:get\s+|set\s+|async\s+)?name\b/.test(code))
    throw new Error("a class defines a static name member: dropRedundantNames would change it");
  return code
    .replace(/^[ \t]*__name\(([\w$]+), "([\w$]+)"\);\n/gm, (all, id, name) =>
      id === name ? "" : all,
    )
    .replace(
      /(\b(?:class ([\w$]+)|(?:var|let|const) ([\w$]+) = class)(?: extends [^{}\n]*)? \{)\n[ \t]*static \{\n[ \t]*__name\(this, "([\w$]+)"\);\n[ \t]*\}/g,
      (all, head, declared, bound, name) => ((declared ?? bound) === name ? head : all),
    );
}
