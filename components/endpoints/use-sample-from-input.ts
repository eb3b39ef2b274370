"use client";

import { useState } from "react";

/**
 * Keeps a test-run field filled with the sample built from the endpoint's declared input while the
 * owner has not written their own: when the declared fields change, a field that is still empty
 * (or `{}`) or still holds the previous sample takes the new one. Text the owner typed is never
 * replaced. Adjusts state during render (React's pattern for state derived from a changing prop).
 */
export function useSampleFromInput(sample: string, text: string, setText: (text: string) => void, emptyValues: readonly string[]): void {
  const [applied, setApplied] = useState(sample);
  if (sample === applied) return;
  setApplied(sample);
  const untouched = emptyValues.includes(text.trim()) || text === applied;
  if (sample !== "" && untouched) setText(sample);
}
