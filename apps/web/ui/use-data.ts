// Reading a query: its value, its error in words, and a reload.
import { useCallback, useEffect, useRef, useState } from "react";

export interface Data<T> {
  readonly value: T | undefined;
  readonly error: string | undefined;
  readonly loading: boolean;
  readonly reload: () => void;
}

/** Runs `fetch` now and whenever a `deps` entry changes or `reload` is called; a late answer of an earlier run is dropped. */
export function useData<T>(fetch: () => Promise<T>, deps: readonly unknown[]): Data<T> {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const run = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the fetch depends on
  useEffect(() => {
    const mine = ++run.current;
    setLoading(true);
    fetch().then(
      (v) => {
        if (run.current !== mine) return;
        setValue(v);
        setError(undefined);
        setLoading(false);
      },
      (e: Error) => {
        if (run.current !== mine) return;
        setError(e.message);
        setLoading(false);
      },
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { value, error, loading, reload };
}
