import { Link, NavLink } from "react-router";
import { newPlaylistPath, playlistPath } from "~/lib/catalog/catalog";
import { useYourPlaylists } from "~/lib/session/use-user";
import { cx } from "~/lib/ui/cx";
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

/** A headed list of links: Your Library, Your Playlists. */
function SidebarSection({
  id,
  heading,
  links,
  className,
}: {
  id: string;
  heading: string;
  links: readonly { to: string; label: string }[];
  className: string;
}) {
  return (
    <nav aria-labelledby={id} className={className}>
      <h2 id={id} className="px-3 text-xs font-semibold tracking-wider text-ink-faint uppercase">
        {heading}
      </h2>
      <ul className="mt-2 grid gap-0.5">
        {links.map((link) => (
          <li key={link.to}>
            <SidebarLink {...link} />
          </li>
        ))}
      </ul>
    </nav>
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
        <SidebarSection id="library-heading" heading="Your Library" links={libraryLinks} className="mt-8" />
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
          <SidebarSection
            id="playlists-heading"
            heading="Your Playlists"
            links={playlists.map((playlist) => ({ to: playlistPath(playlist.id), label: playlist.name }))}
            className="mt-6"
          />
        ) : null}
      </div>
    </aside>
  );
}
