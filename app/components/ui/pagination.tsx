import { LinkButton } from "~/components/ui/button";

/**
 * Newer and older pages of a long list (`?page=`, or `param` where a page has several lists), with where
 * the reader is; `params` are kept (a search), and `fragment` leads back to the list. Nothing when it fits
 * on one page.
 */
export function Pagination({
  path,
  page,
  pages,
  params = {},
  param = "page",
  fragment,
  label = "Pages",
}: {
  path: string;
  page: number;
  pages: number;
  params?: Record<string, string> | [string, string][];
  param?: string;
  fragment?: string;
  label?: string;
}) {
  if (pages <= 1) return null;
  const to = (target: number) => {
    const search = new URLSearchParams(params);
    if (target > 1) search.set(param, String(target));
    return `${search.size > 0 ? `${path}?${search}` : path}${fragment ? `#${fragment}` : ""}`;
  };
  return (
    <nav aria-label={label} className="mt-6 flex items-center gap-3">
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
