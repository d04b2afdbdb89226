import { Form } from "react-router";
import { inputClasses } from "~/components/ui/field";
import { cx } from "~/lib/cx";

/**
 * The artist search box. Without JavaScript it submits to the artist directory (`/artists?q=`); the
 * live dropdown of results enhances it with the catalog.
 */
export function HeaderSearch({ className }: { className?: string }) {
  return (
    <Form method="get" action="/artists" role="search" className={cx("relative", className)}>
      <label htmlFor="header-search" className="sr-only">
        Search artists
      </label>
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-faint">
        <path fillRule="evenodd" d="M9 3.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11ZM2 9a7 7 0 1 1 12.45 4.39l3.58 3.58a.75.75 0 1 1-1.06 1.06l-3.58-3.58A7 7 0 0 1 2 9Z" clipRule="evenodd" />
      </svg>
      <input id="header-search" name="q" type="search" placeholder="Search artists" autoComplete="off" className={cx(inputClasses, "rounded-full py-2 pl-9")} />
    </Form>
  );
}
