import { Form, href, Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { cx } from "~/lib/ui/cx";
import { accountSettingsPath, dashboardPath } from "~/lib/session/redirects";
import type { SessionUser } from "~/lib/session/session-user";
import { useDisclosure } from "~/components/ui/use-disclosure";

/** The signed-in user's links: their dashboard, account settings, Admin for administrators, and Sign out (a POST). */
export function AccountLinks({ user, itemClassName }: { user: SessionUser; itemClassName: string }) {
  const settings = accountSettingsPath(user.role);
  return (
    <>
      {user.role ? (
        <li>
          <Link to={dashboardPath(user.role)} className={itemClassName}>
            Dashboard
          </Link>
        </li>
      ) : null}
      {settings ? (
        <li>
          <Link to={settings} className={itemClassName}>
            Account settings
          </Link>
        </li>
      ) : null}
      {user.isAdmin ? (
        <li>
          <Link to={href("/admin")} className={itemClassName}>
            Admin
          </Link>
        </li>
      ) : null}
      <li>
        <Form method="post" action={href("/logout")}>
          <button type="submit" className={cx(itemClassName, "w-full text-left")}>
            Sign out
          </button>
        </Form>
      </li>
    </>
  );
}

/** The header's account menu on wide screens: a native disclosure. */
export function AccountMenu({ user }: { user: SessionUser }) {
  const ref = useDisclosure();

  return (
    <details ref={ref} className="relative">
      <summary
        className={cx(buttonClasses({ variant: "secondary" }), "max-w-56 cursor-pointer list-none [&::-webkit-details-marker]:hidden")}
      >
        {/* A circle whatever the name's length: the name gives way, the avatar does not. */}
        <span
          aria-hidden="true"
          className="grid size-6 shrink-0 place-items-center rounded-full bg-accent text-xs font-bold text-accent-ink"
        >
          {[...user.displayName][0]?.toUpperCase()}
        </span>
        <span className="truncate">{user.displayName}</span>
        <span className="sr-only">, account menu</span>
      </summary>
      <ul className="absolute right-0 mt-2 w-52 rounded-xl border border-stage-600 bg-stage-850 p-1.5 shadow-2xl">
        <AccountLinks user={user} itemClassName="block rounded-lg px-3 py-2 text-sm text-ink hover:bg-stage-700" />
      </ul>
    </details>
  );
}
