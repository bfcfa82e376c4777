type Layer = Readonly<Record<string, unknown>>;

function isPlainObject(value: unknown): value is Layer {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A session's own settings object (`SessionOptions.settings`) laid over the host's
 * (`EngineOptions.settings`): tables merge key by key, any other value (arrays included)
 * replaces the host's. The result is one user-level layer, checked like a file. Pure.
 */
export function layerSettings(
  host: Layer | undefined,
  session: Layer | undefined,
): Layer | undefined {
  if (!session) return host;
  if (!host) return session;
  const out: Record<string, unknown> = { ...host };
  for (const [key, value] of Object.entries(session)) {
    const below = out[key];
    out[key] = isPlainObject(below) && isPlainObject(value) ? layerSettings(below, value) : value;
  }
  return out;
}
