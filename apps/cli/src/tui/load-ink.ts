/**
 * Loads the ink screen (ink, React, yoga). yoga-layout's wasm loader fetches its inlined
 * `data:` URL when a global `fetch` exists, and the first read of Node's lazy `fetch` loads
 * its whole HTTP client (tens of milliseconds, before the first paint). While the module
 * evaluates, `fetch` is hidden (without reading it), so yoga decodes the bytes itself; the
 * global is put back as it was afterwards, also when the import rejects. Nothing else runs
 * in the process meanwhile (the engine is imported after the screen is up).
 */
export async function loadInk(): Promise<typeof import("./ink-host.js")> {
  const fetch = Object.getOwnPropertyDescriptor(globalThis, "fetch");
  const hide = fetch?.configurable === true;
  if (hide)
    Object.defineProperty(globalThis, "fetch", {
      value: undefined,
      configurable: true,
      writable: true,
    });
  try {
    return await import("./ink-host.js");
  } finally {
    if (hide && fetch) Object.defineProperty(globalThis, "fetch", fetch);
  }
}
