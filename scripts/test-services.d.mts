/** A server started for tests, or the reason it could not be. */
export type Started =
  | { readonly url: string; readonly reason?: undefined; stop(): Promise<void> }
  | { readonly url: null; readonly reason: string; stop?: undefined };

export function startPostgres(options?: { durable?: boolean }): Promise<Started>;
export function startRedis(): Promise<Started>;
export function setupServices(
  project: { readonly name: string; provide(key: string, value: unknown): void },
  names: readonly ("postgres" | "redis")[],
): Promise<() => Promise<void>>;
