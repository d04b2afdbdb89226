import type { ReactNode } from "react";
import { Logo } from "~/components/layout/logo";

/** Sign-in and sign-up pages stand outside the shared layout: the logo, one card, a way back. */
export function AuthShell({
  title,
  subtitle,
  children,
  wide = false,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className="relative min-h-dvh overflow-hidden px-4 py-10">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 left-1/2 size-[36rem] -translate-x-1/2 rounded-full bg-accent/15 blur-3xl"
      />
      <div className={`relative mx-auto ${wide ? "max-w-3xl" : "max-w-md"}`}>
        <header className="mb-8 flex justify-center">
          <Logo />
        </header>
        <main id="main" className="rounded-3xl border border-stage-700 bg-stage-900/90 p-6 shadow-2xl sm:p-8">
          <h1 className="text-center text-3xl font-bold">{title}</h1>
          {subtitle ? <p className="mt-2 text-center text-ink-muted">{subtitle}</p> : null}
          <div className="mt-8">{children}</div>
        </main>
      </div>
    </div>
  );
}
