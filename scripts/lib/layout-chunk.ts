// For the client build's chunking (vite.config.ts): the chunk name of every module
// that the root route or the site's layout imports statically, through any chain of imports; null for
// everything else, which Rolldown's automatic chunking places as before. The route modules themselves stay
// chunks of their own, as React Router loads them by route.
import type { Rolldown } from "vite";

const layoutRoutes = [/[\\/]app[\\/]root\.tsx$/, /[\\/]app[\\/]routes[\\/]_layout\.tsx$/];
const isLayoutRoute = (id: string) => layoutRoutes.some((route) => route.test(id));

type ChunkingContext = Parameters<Extract<Rolldown.CodeSplittingGroup["name"], (...args: never[]) => unknown>>[1];

export function layoutChunk(name = "layout") {
  const reached = new Map<string, boolean>();
  /** Whether a static import chain runs from the root or the layout to `id` (walked up through importers). */
  function fromLayout(id: string, context: ChunkingContext): boolean {
    const known = reached.get(id);
    if (known !== undefined) return known;
    reached.set(id, false); // a circle of imports ends here
    const importers = context.getModuleInfo(id)?.importers ?? [];
    const result = importers.some((importer) => isLayoutRoute(importer) || fromLayout(importer, context));
    reached.set(id, result);
    return result;
  }
  return (id: string, context: ChunkingContext) => (!isLayoutRoute(id) && fromLayout(id, context) ? name : null);
}
