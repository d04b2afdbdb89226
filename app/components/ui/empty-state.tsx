import type { ReactNode } from "react";
import { Icon } from "~/components/ui/icon";

/** What a list shows when it has nothing: a title, an optional line of help and an optional action. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center rounded-2xl border border-dashed border-stage-600 px-6 py-12 text-center">
      <Icon name="music" strokeWidth={1.5} className="mb-4 size-10 text-ink-faint" />
      <p className="text-lg font-semibold text-ink">{title}</p>
      {children ? <div className="mt-1 max-w-md text-ink-muted">{children}</div> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
