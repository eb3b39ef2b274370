/**
 * String-field patterns are owner-supplied regular expressions that run on every write. JavaScript
 * regexes backtrack, so a pattern such as `(a+)+$` can take exponential time on a short input and
 * block the server for every project. Patterns are therefore bounded here (length, syntax, no
 * nested or alternated repetition, no backreferences) and, when a schema is saved, probed against
 * adversarial inputs with a time limit (probe-pattern-speed.ts).
 */

export const PATTERN_MAX_LENGTH = 200;

/** Patterns are compiled with the `u` flag: full Unicode semantics and strict syntax. */
export const PATTERN_FLAGS = "u";

const compiled = new Map<string, RegExp>();
const COMPILED_CACHE_LIMIT = 1000;

/** The compiled pattern (cached). Call only with patterns that passed `checkPattern`. */
export function compilePattern(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (!regex) {
    if (compiled.size >= COMPILED_CACHE_LIMIT) compiled.clear();
    regex = new RegExp(pattern, PATTERN_FLAGS);
    compiled.set(pattern, regex);
  }
  return regex;
}

interface GroupState {
  repeats: boolean;
  alternates: boolean;
}

/** Reads a quantifier at `index`; answers its length and whether it repeats (max > 1). */
function readQuantifier(source: string, index: number): { length: number; repeats: boolean } | null {
  const char = source[index];
  if (char === "*" || char === "+") return { length: 1, repeats: true };
  if (char === "?") return { length: 1, repeats: false };
  if (char === "{") {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index));
    if (!match) return null;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
    return { length: match[0].length, repeats: max > 1 };
  }
  return null;
}

/**
 * Checks an owner-supplied pattern. Answers null when it is acceptable, otherwise a message that
 * says what to change.
 */
export function checkPattern(pattern: string): string | null {
  if (pattern.length === 0) return "must not be empty";
  if (pattern.length > PATTERN_MAX_LENGTH) return `must be at most ${PATTERN_MAX_LENGTH} characters`;
  try {
    new RegExp(pattern, PATTERN_FLAGS);
  } catch {
    return "is not a valid regular expression";
  }

  // Scan the source: a stack of open groups, each remembering whether something inside repeats or
  // alternates; a repeated group that does either can backtrack catastrophically.
  const stack: GroupState[] = [{ repeats: false, alternates: false }];
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index];
    let atomEnd = index + 1;
    let closedGroup: GroupState | null = null;

    if (char === "\\") {
      const next = pattern[index + 1] ?? "";
      if (/[1-9]/.test(next) || (next === "k" && pattern[index + 2] === "<")) {
        return "must not use backreferences (they can make matching take exponential time)";
      }
      atomEnd = index + 2;
      // \p{...}, \u{...}, \x.. and \u.... are one atom.
      if ((next === "p" || next === "P" || next === "u") && pattern[index + 2] === "{") {
        atomEnd = Math.max(pattern.indexOf("}", index) + 1, index + 2);
      }
    } else if (char === "[") {
      let cursor = index + 1;
      if (pattern[cursor] === "^") cursor++;
      if (pattern[cursor] === "]") cursor++;
      while (cursor < pattern.length && pattern[cursor] !== "]") cursor += pattern[cursor] === "\\" ? 2 : 1;
      atomEnd = cursor + 1;
    } else if (char === "(") {
      stack.push({ repeats: false, alternates: false });
      // Skip the group prefix (?:  (?=  (?!  (?<=  (?<!  (?<name>) so its "?" is not read as a quantifier.
      const prefix = /^\((\?(:|=|!|<=|<!|<[A-Za-z_$][\w$]*>))?/.exec(pattern.slice(index));
      index += prefix ? prefix[0].length : 1;
      continue;
    } else if (char === ")") {
      closedGroup = stack.pop() ?? null;
      if (!closedGroup || stack.length === 0) return "is not a valid regular expression";
    } else if (char === "|") {
      const top = stack[stack.length - 1];
      if (top) top.alternates = true;
      index++;
      continue;
    }

    const quantifier = readQuantifier(pattern, atomEnd);
    const top = stack[stack.length - 1];
    if (quantifier && quantifier.repeats && closedGroup) {
      if (closedGroup.repeats) {
        return "must not repeat a group that itself contains a repetition, such as (a+)+ (it can make matching take exponential time)";
      }
      if (closedGroup.alternates) {
        return "must not repeat a group with alternatives, such as (a|ab)* (use a character class instead)";
      }
    }
    if (top && (closedGroup?.repeats || quantifier?.repeats)) top.repeats = true;
    // ((a|aa))* is as ambiguous as (a|aa)*: alternation inside counts for every enclosing group.
    if (top && closedGroup?.alternates) top.alternates = true;
    index = atomEnd;
    if (quantifier) {
      index += quantifier.length;
      if (pattern[index] === "?") index++; // lazy quantifier
    }
  }
  return null;
}
