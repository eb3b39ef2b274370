"use client";

import { use, type ComponentType, type ReactNode } from "react";

/**
 * A component whose code is its own chunk (a dynamic `import()`), for parts of a page that the
 * server renders but the first scripts need not carry. Unlike React.lazy, once the module is loaded
 * it renders at once, in any render, and `preload` can load it ahead: the server loads it when this
 * module is evaluated, and a static render in a test can preload it. In the browser it loads when
 * React first renders it; Next hydrates in a transition, so the server's HTML stays in place and
 * hydration resumes where it waited once the chunk has arrived. Give it no Suspense boundary of its
 * own on a large page: React 19.2's server outlines a boundary once 12.8 kB of the page have been
 * flushed (its fallback is in the HTML, the content revealed by a script, after the first paint on a
 * slow link). A client update that first renders it should be a transition, which waits for it.
 */
export function lazyWithPreload<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): { Component: (props: Props) => ReactNode; preload: () => Promise<ComponentType<Props>> } {
  let loaded: ComponentType<Props> | null = null;
  let loading: Promise<ComponentType<Props>> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed download may succeed on the next render's attempt.
        loading = null;
        throw error;
      },
    ));
  if (typeof window === "undefined") void preload().catch(() => {});
  function Component(props: Props) {
    const Loaded = loaded ?? use(preload());
    return <Loaded {...props} />;
  }
  return { Component, preload };
}
