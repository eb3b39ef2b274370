/**
 * A masked preview of a secret value, enough to tell two keys apart and never enough to use one:
 * long values show their first 3 and last 4 characters (`sk_…f3a9`), medium ones the last 2, short
 * ones nothing at all.
 */
export function secretHint(value: string): string {
  const characters = Array.from(value);
  if (characters.length >= 20) return `${characters.slice(0, 3).join("")}…${characters.slice(-4).join("")}`;
  if (characters.length >= 10) return `…${characters.slice(-2).join("")}`;
  return "••••";
}
