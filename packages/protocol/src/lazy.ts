// Schemas built on first use (issue 18: `zeng -p` builds every zod schema its modules declare
// at import, and most of protocol's are never used before the first request).

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
 * `instanceof` checks behave as on the schema itself. What differs is identity only: the
 * stand-in is not `===` the object (a zod registry keyed by the real schema does not find
 * metadata under the stand-in), so build schemas from the real object (call `once`'s
 * function) and hand out the stand-in. `build` runs at most once; what it throws is thrown
 * to each use until then.
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
