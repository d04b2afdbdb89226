import { href, Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { cx } from "~/lib/ui/cx";
import type { SessionUser } from "~/lib/session/session-user";
import { AccountLinks } from "./account-menu";
import { useDisclosure } from "~/components/ui/use-disclosure";
import { HeaderSearch } from "./header-search";
import { headerLinks, libraryLinks } from "./nav-items";
import { Icon } from "~/components/ui/icon";

/** The small-screen menu: a native disclosure, so it opens and its links work without JavaScript. */
export function MobileMenu({ user, className }: { user: SessionUser | null; className?: string }) {
  const ref = useDisclosure();

  return (
    <details ref={ref} className={cx("group", className)}>
      <summary
        className={cx(buttonClasses({ variant: "secondary", size: "md" }), "list-none cursor-pointer [&::-webkit-details-marker]:hidden")}
      >
        <Icon name="menu" className="size-5" />
        Menu
      </summary>
      <nav
        aria-label="Mobile"
        className="absolute inset-x-0 top-(--header-height) max-h-[calc(100dvh-var(--header-height))] overflow-y-auto border-b border-stage-700 bg-stage-900 px-4 pt-4 pb-6 shadow-2xl"
      >
        <HeaderSearch className="mb-4 md:hidden" />
        <ul className="grid gap-1">
          {headerLinks.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="block rounded-lg px-3 py-3 text-base font-medium text-ink hover:bg-stage-800">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-4 px-3 text-xs font-semibold tracking-wider text-ink-faint uppercase">Your Library</p>
        <ul className="mt-1 grid gap-1">
          {libraryLinks.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="block rounded-lg px-3 py-3 text-base text-ink-muted hover:bg-stage-800 hover:text-ink">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        {user ? (
          <>
            <p className="mt-4 px-3 text-xs font-semibold tracking-wider text-ink-faint uppercase">Signed in as {user.displayName}</p>
            <ul className="mt-1 grid gap-1">
              <AccountLinks user={user} itemClassName="block rounded-lg px-3 py-3 text-base text-ink hover:bg-stage-800" />
            </ul>
          </>
        ) : (
          <div className="mt-5 grid grid-cols-2 gap-3">
            <Link to={href("/login")} className={buttonClasses({ variant: "secondary" })}>
              Log in
            </Link>
            <Link to={href("/register")} className={buttonClasses()}>
              Sign up
            </Link>
          </div>
        )}
      </nav>
    </details>
  );
}
