import type { ReactNode } from "react";
import { legalLastUpdated } from "~/lib/constants";

/** The frame of the terms and privacy pages: title, last-updated date, the text. */
export function LegalPage({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <article className="prose-page max-w-3xl pb-8">
      <h1 className="text-4xl font-bold text-ink">{title}</h1>
      <p className="text-sm text-ink-faint">
        Last updated <time dateTime={legalLastUpdated.iso}>{legalLastUpdated.label}</time>
      </p>
      <p className="text-lg">{intro}</p>
      {children}
    </article>
  );
}
