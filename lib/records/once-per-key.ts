/**
 * Work that a store does once per key for every caller (an index a platform collection needs): the
 * first call starts it, later calls share its promise; a failure is forgotten so that the next call
 * tries again.
 */
export function oncePerKey(): (key: string, start: () => Promise<void>) => Promise<void> {
  const started = new Map<string, Promise<void>>();
  return (key, start) => {
    const known = started.get(key);
    if (known) return known;
    const pending = start();
    started.set(key, pending);
    pending.catch(() => started.delete(key));
    return pending;
  };
}
