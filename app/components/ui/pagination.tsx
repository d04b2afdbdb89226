import { LinkButton } from "~/components/ui/button";

/**
 * Newer and older pages of a long list (`?page=`), with where the reader is; `params` are kept (a search).
 * Nothing when it fits on one page.
 */
export function Pagination({
  path,
  page,
  pages,
  params = {},
}: {
  path: string;
  page: number;
  pages: number;
  params?: Record<string, string> | [string, string][];
}) {
  if (pages <= 1) return null;
  const to = (target: number) => {
    const search = new URLSearchParams(params);
    if (target > 1) search.set("page", String(target));
    return search.size > 0 ? `${path}?${search}` : path;
  };
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center gap-3">
      {page > 1 ? (
        <LinkButton to={to(page - 1)} variant="secondary">
          Newer
        </LinkButton>
      ) : null}
      <span className="text-sm text-ink-muted">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <LinkButton to={to(page + 1)} variant="secondary">
          Older
        </LinkButton>
      ) : null}
    </nav>
  );
}
