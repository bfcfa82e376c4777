// Schemas built on first use (issue 18): every exported schema of this package is a `lazily`
// stand-in, because `zeng -p` built all of them at import and uses few before its first
// request (the enums config's settings name, the command it parses).

/** `build`, run on the first call only; later calls return its first result. */
export function once<T>(build: () => T): () => T {
  let built = false;
  let value: T | undefined;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}

/**
 * A stand-in for the object `build` returns (a zod schema, or an object of them), built on
 * first use: reading a property, `in`, listing keys, `instanceof` (the prototype is the
 * real one's) and writing all reach the real object, with getters run against it, so
 * `schema.parse(v)`, `schema.shape`, `schema.extend(...)`, `schema.options` and zod's
 * `instanceof` checks behave as on the schema itself, and a stand-in may be a field or an
 * option of another schema (zod reaches it through its properties). What differs is identity
 * only: the stand-in is not `===` the object, so metadata a zod registry keeps for the real
 * schema (`.describe()`, `.meta()` on it inside `build`) is not found under the stand-in when
 * another schema holds it; give such a schema its description where it is used, or build
 * from the real object (`once`'s function). `build` runs at most once; what it throws is
 * thrown to each use until then.
 */
export function lazily<T extends object>(build: () => T): T {
  const real = once(build);
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(real(), key);
      // The stand-in's own target has no such property, so it may report it only as configurable.
      return found && { ...found, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
