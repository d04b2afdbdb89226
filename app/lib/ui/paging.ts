// Long lists shown a page at a time, the page in the address (`?page=`).
import { redirect } from "react-router";

/** The furthest page the backend's lists serve (their functions bring any page into 1 to this). */
const lastPage = 10_000;

/**
 * The page asked for: a whole number from 1; anything else is the first page, and a number past the
 * furthest page (or past what the database's integers hold) is the furthest.
 */
export function pageFrom(url: URL): number {
  const page = Number.parseInt(url.searchParams.get("page") ?? "", 10);
  return Number.isFinite(page) && page > 1 ? Math.min(page, lastPage) : 1;
}

/** How many pages `total` items make, `pageSize` each; an empty list is one (empty) page. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * A page that starts past the end of a list goes to the list's first page instead of failing; the rest of
 * the address is kept. `past`: PostgREST's answer to a `.range()` past the end (416, PGRST103), or, for a
 * page function that counts its list, whether the count ends before this page.
 */
export function firstPageIfPastTheEnd(past: { code?: string } | null | boolean, url: URL): void {
  if (past !== true && (typeof past !== "object" || past?.code !== "PGRST103")) return;
  const first = new URL(url);
  first.searchParams.delete("page");
  throw redirect(`${first.pathname}${first.search}`);
}
