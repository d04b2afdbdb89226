import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Form, href, useFetcher, useNavigate } from "react-router";
import { ProfileImage } from "~/components/catalog/artist-image";
import { inputClasses } from "~/components/ui/field";
import { artistPath } from "~/lib/catalog/catalog";
import { artistSearch } from "~/lib/constants";
import { cx } from "~/lib/ui/cx";
import type { ArtistSearchReply } from "~/lib/schemas/catalog-data";
import { Icon } from "~/components/ui/icon";

/**
 * The artist search box. Without JavaScript it submits to the artist directory (`/artists?q=`). With
 * it, a combobox: a dropdown of up to 10 matching artists while typing, arrow keys to move through
 * them, Enter to open one, Escape to close (WAI-ARIA combobox pattern with a listbox popup).
 */
export function HeaderSearch({ className }: { className?: string }) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-results`;
  const navigate = useNavigate();
  const fetcher = useFetcher<ArtistSearchReply>();
  const containerRef = useRef<HTMLFormElement>(null);
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const term = query.trim();

  useEffect(() => {
    if (!term) return;
    const timer = setTimeout(() => fetcher.load(`${href("/search/artists")}?${new URLSearchParams({ q: term })}`), artistSearch.delayMs);
    return () => clearTimeout(timer);
    // Only a new term starts a search: the fetcher object changes with every answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [term]);

  const answered = fetcher.data?.query === term;
  const results = term && answered ? fetcher.data!.artists : [];
  const searching = Boolean(term) && (!answered || fetcher.state === "loading");
  const error = term && answered ? fetcher.data!.error : null;
  const expanded = open && Boolean(term);
  const activeId = active >= 0 && active < results.length ? `${id}-option-${active}` : undefined;

  // New results (or a new term) start with no option active: adjusted while rendering, not in an effect.
  const resultsKey = `${answered ? "answered" : "waiting"}:${term}`;
  const [activeFor, setActiveFor] = useState(resultsKey);
  if (activeFor !== resultsKey) {
    setActiveFor(resultsKey);
    setActive(-1);
  }

  function choose(index: number) {
    const artist = results[index];
    if (!artist) return;
    setOpen(false);
    setQuery("");
    navigate(artistPath(artist.id));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      if (results.length === 0) return;
      const count = results.length;
      setActive((current) => (event.key === "ArrowDown" ? (current + 1) % count : current <= 0 ? count - 1 : current - 1));
    } else if (event.key === "Enter" && expanded && activeId) {
      event.preventDefault();
      choose(active);
    } else if (event.key === "Escape") {
      if (expanded) {
        event.preventDefault();
        setOpen(false);
      } else {
        setQuery("");
      }
    }
  }

  return (
    <Form
      ref={containerRef}
      method="get"
      action={href("/artists")}
      role="search"
      aria-label="Site search"
      className={cx("relative", className)}
      onBlur={(event) => {
        if (!containerRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <label htmlFor={inputId} className="sr-only">
        Search artists
      </label>
      <Icon name="search" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-faint" />
      <input
        id={inputId}
        name="q"
        type="search"
        placeholder="Search artists"
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded ? activeId : undefined}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
        className={cx(inputClasses, "rounded-full py-2 pl-9")}
      />
      <div
        className={cx(
          "absolute inset-x-0 top-full z-50 mt-2 overflow-hidden rounded-2xl border border-stage-600 bg-stage-850 shadow-2xl shadow-black/50",
          !expanded && "hidden",
        )}
      >
        <ul id={listId} role="listbox" aria-label="Matching artists" className="max-h-96 overflow-y-auto py-1">
          {results.map((artist, index) => (
            <li
              key={artist.id}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(index)}
              onMouseMove={() => setActive(index)}
              className={cx("flex cursor-pointer items-center gap-3 px-3 py-2", index === active && "bg-stage-700")}
            >
              <ProfileImage
                name={artist.artist_name}
                src={artist.profile_image_url}
                className="size-9 shrink-0 rounded-full"
                initialClassName="text-sm"
              />
              <span className="min-w-0">
                <span className="block truncate text-sm font-semibold text-ink">{artist.artist_name}</span>
                {artist.genres.length > 0 ? (
                  <span className="block truncate text-xs text-ink-faint">{artist.genres.join(", ")}</span>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
        <p role="status" className={cx("px-4 text-sm text-ink-muted", term && (searching || error || results.length === 0) && "py-3")}>
          {!term ? "" : searching ? "Searching..." : error ? error : results.length === 0 ? "No results found" : ""}
        </p>
      </div>
    </Form>
  );
}
