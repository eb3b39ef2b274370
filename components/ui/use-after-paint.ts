"use client";

import { useEffect, useState } from "react";

const loadedValues = new WeakMap<() => Promise<unknown>, unknown>();

/**
 * Runs `load` and keeps what it resolved to for useAfterPaint, so that later mounts (and a
 * server-side render, in tests) have it at once.
 */
export async function loadAfterPaint<T>(load: () => Promise<T>): Promise<T> {
  const loaded = await load();
  loadedValues.set(load, loaded);
  return loaded;
}

/**
 * What `load` resolves to (typically a dynamic `import()` of a module the first paint does not
 * need), or null until it has arrived. Loading starts in an effect, so the module's chunk is not
 * among the page's initial scripts; later mounts get the value at once. `load` must be a stable
 * (module-level) function. A failed load leaves null: what depends on it stays off.
 */
export function useAfterPaint<T>(load: () => Promise<T>): T | null {
  const [value, setValue] = useState<T | null>(() => (loadedValues.has(load) ? (loadedValues.get(load) as T) : null));
  useEffect(() => {
    if (value !== null) return;
    let mounted = true;
    loadAfterPaint(load).then(
      (loaded) => {
        // A function would be taken for an updater.
        if (mounted) setValue(() => loaded);
      },
      () => {},
    );
    return () => {
      mounted = false;
    };
  }, [load, value]);
  return value;
}
