import { href } from "react-router";
import type { ReactNode } from "react";
import { LinkButton } from "~/components/ui/button";
import { brandName } from "~/lib/constants";

export type NotFoundLink = { to: string; label: string };

/**
 * The one 404 screen: an unknown address, or a page whose artist, fan or track does not exist. It says
 * what is missing and offers a way on (the first link is the main one).
 */
export function NotFound({
  title = "Page not found",
  children = "We couldn't find the page you were looking for. It may have moved, or the link may be mistyped.",
  links = [
    { to: "/", label: "Back to home" },
    { to: href("/discover"), label: "Discover artists" },
  ],
}: {
  title?: string;
  children?: ReactNode;
  links?: NotFoundLink[];
}) {
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <title>{`${title} · ${brandName}`}</title>
      <p className="font-display text-6xl font-bold text-accent">404</p>
      <h1 className="mt-4 text-3xl font-bold">{title}</h1>
      <p className="mt-3 text-ink-muted">{children}</p>
      <div className="mt-8 flex justify-center gap-3">
        {links.map((link, index) => (
          <LinkButton key={link.to} to={link.to} variant={index === 0 ? "primary" : "secondary"}>
            {link.label}
          </LinkButton>
        ))}
      </div>
    </section>
  );
}
