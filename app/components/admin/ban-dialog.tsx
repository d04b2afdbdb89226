import { useEffect, useRef } from "react";
import { Form, useNavigate } from "react-router";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { LinkButton } from "~/components/ui/button";
import { Field, TextareaField } from "~/components/ui/field";
import type { formFields } from "~/lib/forms/forms";
import { banDays } from "~/lib/constants";

/**
 * The ban form as a dialog. The server renders it open (its address is `?ban=<user>`), so it works without
 * JavaScript; with it, the dialog becomes modal (focus kept inside, Escape cancels) and Cancel or Escape
 * go back to the list.
 */
export function BanDialog({
  user,
  action,
  cancelTo,
  form,
}: {
  user: { id: string; email: string };
  action: string;
  cancelTo: string;
  form: ReturnType<typeof formFields>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.matches(":modal")) {
      element.close();
      element.showModal();
    }
    const cancel = (event: Event) => {
      event.preventDefault();
      void navigate(cancelTo, { preventScrollReset: true });
    };
    element.addEventListener("cancel", cancel);
    return () => element.removeEventListener("cancel", cancel);
  }, [cancelTo, navigate]);

  return (
    <dialog
      ref={dialog}
      open
      aria-labelledby="ban-heading"
      className="fixed inset-0 z-50 m-auto h-fit w-[min(28rem,calc(100%-2rem))] rounded-2xl border border-stage-600 bg-stage-900 p-6 text-ink shadow-2xl backdrop:bg-black/70"
    >
      <h2 id="ban-heading" className="text-lg font-semibold">
        Ban {user.email}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        They are signed out everywhere and cannot sign in, comment or change anything until the ban ends.
      </p>
      <Form method="post" action={action} noValidate className="mt-4 grid gap-4">
        <input type="hidden" name="intent" value="ban" />
        <input type="hidden" name="userId" value={user.id} />
        <FormAlert>{form.formError}</FormAlert>
        <Field
          label="Days"
          name="days"
          type="number"
          inputMode="numeric"
          min={banDays.minimum}
          max={banDays.maximum}
          step={1}
          required
          defaultValue={form.text("days") || String(banDays.default)}
          error={form.error("days")}
        />
        <TextareaField label="Reason" {...form.field("reason")} rows={3} maxLength={1000} />
        <div className="flex flex-wrap gap-3">
          <div className="min-w-40">
            <SubmitButton action={new URL(action, "http://x").pathname} pendingLabel="Banning...">
              Ban user
            </SubmitButton>
          </div>
          <LinkButton to={cancelTo} variant="secondary" preventScrollReset>
            Cancel
          </LinkButton>
        </div>
      </Form>
    </dialog>
  );
}
