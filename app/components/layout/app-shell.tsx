import type { ReactNode } from "react";
import { Footer } from "./footer";
import { Header } from "./header";
import { Sidebar } from "./sidebar";

/** The shared layout: fixed header, the sidebar on wide screens, the page and the footer. */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-accent px-4 py-2 font-semibold text-accent-ink focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <Header />
      {/* The sidebar is a column as tall as the page (its background with it); its links stay in view. A
          short page still fills the window, so the sidebar and the footer reach its bottom edge. */}
      <div className="flex min-h-svh flex-col pt-(--header-height) lg:flex-row">
        <Sidebar />
        <div className="room-for-player flex min-w-0 flex-1 flex-col">
          <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 pt-8 focus:outline-none lg:px-8">
            {children}
          </main>
          <Footer />
        </div>
      </div>
    </>
  );
}
