import { NavLink } from "react-router";
import { cx } from "~/lib/cx";
import { libraryLinks, sidebarLinks } from "./nav-items";
import { Icon } from "~/components/ui/icon";

function SidebarLink({ to, label }: { to: string; label: string }) {
  return (
    <NavLink
      to={to}
      end={to === "/"}
      className={({ isActive }) =>
        cx(
          "block rounded-lg px-3 py-2 text-sm font-medium",
          isActive ? "bg-stage-800 text-ink" : "text-ink-muted hover:bg-stage-850 hover:text-ink",
        )
      }
    >
      {label}
    </NavLink>
  );
}

export function Sidebar() {
  return (
    <aside className="hidden w-60 shrink-0 border-r border-stage-700 bg-stage-900 lg:block">
      <div className="sticky top-(--header-height) max-h-[calc(100dvh-var(--header-height))] overflow-y-auto px-3 py-5">
        <nav aria-label="Browse">
          <ul className="grid gap-0.5">
            {sidebarLinks.map((link) => (
              <li key={link.to}>
                <SidebarLink {...link} />
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="library-heading" className="mt-8">
          <h2 id="library-heading" className="px-3 text-xs font-semibold tracking-wider text-ink-faint uppercase">
            Your Library
          </h2>
          <ul className="mt-2 grid gap-0.5">
            {libraryLinks.map((link) => (
              <li key={link.to}>
                <SidebarLink {...link} />
              </li>
            ))}
          </ul>
        </nav>
        <div className="mt-6 px-3">
          {/* The spec gives playlists no behaviour yet: an honest, announced "coming soon" instead of a dead control. */}
          <button
            type="button"
            aria-disabled="true"
            aria-describedby="new-playlist-hint"
            onClick={(event) => event.preventDefault()}
            className="flex w-full cursor-not-allowed items-center gap-2 rounded-lg border border-dashed border-stage-600 px-3 py-2 text-sm text-ink-faint"
          >
            <Icon name="plus" className="size-4" />
            New Playlist
          </button>
          <p id="new-playlist-hint" className="mt-1.5 text-xs text-ink-faint">
            Playlists are coming soon.
          </p>
        </div>
      </div>
    </aside>
  );
}
