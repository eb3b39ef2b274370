"use client";

import { useEffect, useState } from "react";

const loadedValues = new WeakMap<() => Promise<unknown>, unknown>();

/**
 * Runs `load` and keeps what it resolved to for useOnFirstInput, so that later mounts (and a
 * server-side render, in tests) have it at once.
 */
export async function loadForInput<T>(load: () => Promise<T>): Promise<T> {
  const loaded = await load();
  loadedValues.set(load, loaded);
  return loaded;
}

/** Events by which an owner starts working on the page: a key (Tab included), a pointer, a typed character. */
const FIRST_INPUT_EVENTS = ["keydown", "pointerdown", "input"] as const;
let firstInput: Promise<void> | null = null;

/** Resolves at the page's first key press, pointer press or input, whichever comes first. */
function onFirstInput(): Promise<void> {
  firstInput ??= new Promise<void>((resolve) => {
    const done = () => {
      for (const type of FIRST_INPUT_EVENTS) document.removeEventListener(type, done, true);
      resolve();
    };
    for (const type of FIRST_INPUT_EVENTS) document.addEventListener(type, done, { capture: true, passive: true });
  });
  return firstInput;
}

/**
 * What `load` resolves to (a dynamic `import()` of what only editing needs: the live checks, the
 * transform preview), or null until it has arrived. Loading starts at the owner's first key press,
 * pointer press or input on the page, not at load: a saved definition passed the server's checks, so
 * until something changes there is nothing to check, and the page's load stays free of the module's
 * download, evaluation and the re-render its arrival causes. Later mounts get the value at once.
 * `load` must be a stable (module-level) function. A failed load leaves null: what depends on it
 * stays off, and the server still checks on save.
 */
export function useOnFirstInput<T>(load: () => Promise<T>): T | null {
  const [value, setValue] = useState<T | null>(() => (loadedValues.has(load) ? (loadedValues.get(load) as T) : null));
  useEffect(() => {
    if (value !== null) return;
    let mounted = true;
    onFirstInput()
      .then(() => loadForInput(load))
      .then(
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
