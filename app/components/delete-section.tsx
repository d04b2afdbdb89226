import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import type { formFields } from "~/lib/forms/forms";
import { cx } from "~/lib/ui/cx";
import { CheckboxField, FormAlert } from "~/components/form-controls";

/**
 * "Delete this {thing}": a form that posts `intent=delete` with a box to tick first, so a slip deletes
 * nothing. Its message (the unticked box, a refusal) stands in it, not in the page's other forms.
 */
export function DeleteSection({
  thing,
  action,
  form,
  children,
  className,
}: {
  thing: string;
  action: string;
  form: ReturnType<typeof formFields>;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={cx("border-danger/40", className)}>
      <h2 className="text-xl font-semibold">Delete this {thing}</h2>
      <p className="mt-1 text-sm text-ink-muted">{children}</p>
      <Form method="post" action={action} noValidate className="mt-4 grid gap-4">
        <input type="hidden" name="intent" value="delete" />
        <FormAlert>{form.formError}</FormAlert>
        <CheckboxField name="confirm" label={`I understand that deleting this ${thing} cannot be undone.`} error={form.error("confirm")} />
        <div>
          <Button type="submit" variant="danger">
            Delete {thing}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
