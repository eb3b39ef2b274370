"use client";

import { useCallback, useEffect, useState } from "react";
import { focusFirstMarkedField } from "./focus-first-marked-field";

/**
 * Returns a function that, once the issues just set have rendered, scrolls to the first marked
 * field of the page and focuses it. Motion follows the owner's reduced-motion preference.
 */
export function useFocusFirstMarkedField(): () => void {
  const [request, setRequest] = useState(0);
  useEffect(() => {
    if (request === 0) return;
    const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
    focusFirstMarkedField(document, { reducedMotion });
  }, [request]);
  return useCallback(() => setRequest((count) => count + 1), []);
}
