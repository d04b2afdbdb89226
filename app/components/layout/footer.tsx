import { Link } from "react-router";
import { artistShare, brandName } from "~/lib/constants";
import { footerLinks } from "./nav-items";

export function Footer() {
  return (
    <footer className="mt-16 border-t border-stage-700 px-4 py-8 text-sm text-ink-faint lg:px-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p>
          {brandName}: music straight from independent artists. Artists keep {artistShare.digitalPercent}% of every digital sale.
        </p>
        <nav aria-label="Legal">
          <ul className="flex gap-5">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-ink-muted underline-offset-4 hover:text-ink hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
