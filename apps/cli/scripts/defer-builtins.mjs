// Loads some of Node's built-in modules on first use instead of when the headless bundle
// starts. Why: the bundle's top level runs every `require("node:...")` of the engine's ES
// modules, and a few of them cost milliseconds to load (node:https with TLS ~1.8 ms,
// node:child_process ~1.4 ms, node:worker_threads, node:v8, node:zlib ~2 ms: the first
// snapshot's in-process commit deflates its objects after the request) although nothing before
// `zeng -p`'s first request uses them (issue 18; README, "Start-up").

/** The built-ins the headless bundle loads on first use (none of them is used before the first request). */
export const DEFERRED_BUILTINS = [
  "node:https",
  "node:child_process",
  "node:worker_threads",
  "node:v8",
  "node:zlib",
];

/**
 * The helper the rewritten lines call: a stand-in for the module object that requires the
 * module on the first property read (or `in`, or listing its keys) and forwards to it after.
 */
const HELPER = `var __zengDeferred = (id) => {
  let loaded;
  const real = () => (loaded ??= require(id));
  return new Proxy({}, {
    get: (_, key) => real()[key],
    has: (_, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(real(), key);
      return found && { ...found, configurable: true };
    },
  });
};
var __zengDeferredNamespace = (id) => {
  const module = __zengDeferred(id);
  return new Proxy({}, {
    get: (_, key) => (key === "default" ? require(id) : module[key]),
    has: (_, key) => key === "default" || key in module,
    ownKeys: () => [...new Set(["default", ...Reflect.ownKeys(module)])],
    getOwnPropertyDescriptor: (_, key) =>
      key === "default"
        ? { value: require(id), enumerable: true, configurable: true, writable: false }
        : Reflect.getOwnPropertyDescriptor(module, key),
  });
};
`;

/**
 * Rewrites, for an `id` in `ids`, each top-level `var x = require("<id>");` of a CommonJS bundle
 * (esbuild's form for `import { a } from "<id>"`, used as `x.a`) and each
 * `__toESM(require("<id>"), 1)` (its form for `import * as x`, in the bundled SDKs' lazy
 * module bodies: the namespace, with `default` as the module) into a stand-in that loads the
 * module when first used, and puts the helpers after the bundle's `"use strict";`. Other
 * requires are left as they are. Returns the code and how many it rewrote.
 */
export function deferBuiltins(code, ids = DEFERRED_BUILTINS) {
  let count = 0;
  const rewritten = code
    .replace(/^(var [\w$]+ = )require\("([^"]+)"\);$/gm, (all, head, id) => {
      if (!ids.includes(id)) return all;
      count++;
      return `${head}__zengDeferred(${JSON.stringify(id)});`;
    })
    .replace(/\b__toESM\(require\("([^"]+)"\), 1\)/g, (all, id) => {
      if (!ids.includes(id)) return all;
      count++;
      return `__zengDeferredNamespace(${JSON.stringify(id)})`;
    });
  if (count === 0) return { code, count };
  const strict = rewritten.indexOf('"use strict";\n');
  const at = strict === -1 ? 0 : strict + '"use strict";\n'.length;
  return { code: rewritten.slice(0, at) + HELPER + rewritten.slice(at), count };
}
