import { LinkButton } from "~/components/ui/button";

/** Newer and older pages of a long list (`?page=`), with where the reader is. Nothing when it fits on one page. */
export function Pagination({ path, page, pages }: { path: string; page: number; pages: number }) {
  if (pages <= 1) return null;
  const to = (target: number) => (target === 1 ? path : `${path}?page=${target}`);
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
