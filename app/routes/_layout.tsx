import { Outlet } from "react-router";
import { AppShell } from "~/components/layout/app-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";

export default function SharedLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

/** A page that fails keeps the header, sidebar and footer around the error. */
export function ErrorBoundary() {
  return (
    <AppShell>
      <GeneralErrorBoundary />
    </AppShell>
  );
}
