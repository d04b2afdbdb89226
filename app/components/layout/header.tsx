import { href, NavLink } from "react-router";
import { LinkButton } from "~/components/ui/button";
import { cx } from "~/lib/ui/cx";
import { useCartCount, useOptionalUser } from "~/lib/session/use-user";
import { AccountMenu } from "./account-menu";
import { CountLink } from "./count-link";
import { HeaderSearch } from "./header-search";
import { Logo } from "./logo";
import { MobileMenu } from "./mobile-menu";
import { NotificationBell } from "./notification-bell";
import { headerLinks } from "./nav-items";

export function Header() {
  const user = useOptionalUser();
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-(--header-height) border-b border-stage-700 bg-stage-950/90 backdrop-blur">
      <div className="flex h-full items-center gap-4 px-4 lg:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {headerLinks.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.to === "/"}
                  className={({ isActive }) =>
                    cx("rounded-full px-3 py-2 text-sm font-medium", isActive ? "bg-stage-800 text-ink" : "text-ink-muted hover:text-ink")
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <HeaderSearch className="ml-auto hidden w-full max-w-xs md:block" />
        <div className="ml-auto flex items-center gap-2 md:ml-0">
          <NotificationBell />
          <CartLink />
          <div className="hidden items-center gap-2 lg:flex">
            {user ? (
              <AccountMenu user={user} />
            ) : (
              <>
                <LinkButton to={href("/login")} variant="ghost">
                  Log in
                </LinkButton>
                <LinkButton to={href("/register")}>Sign up</LinkButton>
              </>
            )}
          </div>
          <MobileMenu user={user} className="lg:hidden" />
        </div>
      </div>
    </header>
  );
}

/** The cart with its count, where fans can pay. */
function CartLink() {
  const count = useCartCount();
  if (count === null) return null;
  return (
    <CountLink
      to={href("/cart")}
      icon="cart"
      label={`Cart, ${count} ${count === 1 ? "item" : "items"}`}
      count={count > 0 ? String(count) : null}
    />
  );
}
