import { brandName } from "~/components/layout/nav-items";
import { LinkButton } from "~/components/ui/button";

/** What a catalog page shows when what it names does not exist ('Artist not found', 'Fan not found'). */
export function MissingPage({ title, link }: { title: string; link: { to: string; label: string } }) {
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <title>{`${title} · ${brandName}`}</title>
      <p className="font-display text-6xl font-bold text-accent">404</p>
      <h1 className="mt-4 text-3xl font-bold">{title}</h1>
      <p className="mt-3 text-ink-muted">The link may be mistyped, or the profile may have been removed.</p>
      <LinkButton to={link.to} className="mt-8">
        {link.label}
      </LinkButton>
    </section>
  );
}
