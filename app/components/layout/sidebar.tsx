import { Link, NavLink } from "react-router";
import { newPlaylistPath, playlistPath } from "~/lib/catalog";
import { useYourPlaylists } from "~/lib/use-user";
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
          "block truncate rounded-lg px-3 py-2 text-sm font-medium",
          isActive ? "bg-stage-800 text-ink" : "text-ink-muted hover:bg-stage-850 hover:text-ink",
        )
      }
    >
      {label}
    </NavLink>
  );
}

export function Sidebar() {
  const playlists = useYourPlaylists();
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
          <Link
            to={newPlaylistPath()}
            className="flex w-full items-center gap-2 rounded-lg border border-dashed border-stage-600 px-3 py-2 text-sm text-ink-muted hover:border-ink-faint hover:text-ink"
          >
            <Icon name="plus" className="size-4" />
            New Playlist
          </Link>
        </div>
        {playlists.length > 0 ? (
          <nav aria-labelledby="playlists-heading" className="mt-6">
            <h2 id="playlists-heading" className="px-3 text-xs font-semibold tracking-wider text-ink-faint uppercase">
              Your Playlists
            </h2>
            <ul className="mt-2 grid gap-0.5">
              {playlists.map((playlist) => (
                <li key={playlist.id}>
                  <SidebarLink to={playlistPath(playlist.id)} label={playlist.name} />
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </div>
    </aside>
  );
}
