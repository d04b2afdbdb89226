import { lazy, type ComponentType } from "react";

/**
 * A component whose code the browser fetches the first time it renders (the server renders it at once,
 * from a static import). If the code cannot be fetched (a release replaced it while the tab was open, or
 * the connection dropped), the page is loaded again from `reloadAt()`, once, and the server renders it
 * there; should it fail again, what the server sent stays as it is, plain HTML that works as it does
 * without JavaScript, rather than the page giving way to an error.
 */
export function onDemand<Props>(load: () => Promise<ComponentType<Props>>, reloadAt: () => string) {
  return lazy(async () => {
    try {
      return { default: await load() };
    } catch {
      const tried = `crate-reloaded:${window.location.pathname}`;
      if (sessionStorage.getItem(tried) === null) {
        sessionStorage.setItem(tried, "1");
        window.location.assign(reloadAt());
      }
      // Never settles: the page is leaving, or the server's HTML stays in place.
      return new Promise<never>(() => {});
    }
  });
}
