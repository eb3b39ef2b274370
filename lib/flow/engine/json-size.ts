const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

function stringSize(value: string): number {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value).length : value.length + 2;
}

/**
 * The length of `JSON.stringify(value)`, computed without building the text and given up as soon
 * as it passes `max` (then answers `max + 1`). Objects that share children count them every time,
 * as serialisation would, so a small graph that would serialise to gigabytes is caught early.
 * Iterative, so deeply nested input cannot overflow the stack.
 */
export function jsonSizeWithin(value: unknown, max: number): number {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    let current = pending.pop();
    if (current !== null && typeof current === "object" && typeof (current as { toJSON?: unknown }).toJSON === "function") {
      current = (current as { toJSON(): unknown }).toJSON();
    }
    if (typeof current === "string") size += stringSize(current);
    else if (typeof current === "number") size += Number.isFinite(current) ? String(current).length : 4;
    else if (typeof current === "boolean") size += current ? 4 : 5;
    else if (Array.isArray(current)) {
      size += current.length === 0 ? 2 : 1 + current.length;
      for (let i = current.length - 1; i >= 0; i--) {
        const item: unknown = current[i];
        pending.push(item === undefined || typeof item === "function" || typeof item === "symbol" ? null : item);
      }
    } else if (current !== null && typeof current === "object") {
      let members = 0;
      for (const key of Object.keys(current)) {
        const item = (current as Record<string, unknown>)[key];
        if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
        members += 1;
        size += stringSize(key) + 1;
        pending.push(item);
      }
      size += members === 0 ? 2 : 1 + members;
    } else {
      // null, and undefined at the top level (which JSON.stringify drops; counted as "null").
      size += 4;
    }
    if (size > max) return max + 1;
  }
  return size;
}
