// Long lists shown a page at a time, the page in the address (`?page=`).

/** The page asked for: a whole number from 1; anything else is the first page. */
export function pageFrom(url: URL): number {
  const page = Number.parseInt(url.searchParams.get("page") ?? "", 10);
  return Number.isFinite(page) && page > 1 ? page : 1;
}

/** How many pages `total` items make, `pageSize` each; an empty list is one (empty) page. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
