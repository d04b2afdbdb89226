import { Form } from "react-router";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import type { formFields } from "~/lib/forms/forms";

type PreorderTrack = { id: string; title: string; instant: boolean };

/**
 * A release dated ahead, on pre-order or not (issue 69, Pre-orders): its release day and its instant
 * downloads, saved together (`intent=preorder`); moving the day tells its buyers. On pre-order, it can be
 * withdrawn (`intent=withdraw-preorder`, with a box to tick): every buyer is refunded. Plain forms, so
 * they work without JavaScript.
 */
export function PreorderSection({
  action,
  releaseId,
  kind,
  onPreorder,
  withdrawing,
  releaseDate,
  tracks,
  form,
  replied,
  withdrawForm,
}: {
  action: string;
  releaseId: string;
  kind: "album" | "single";
  onPreorder: boolean;
  /** A withdrawal was just asked for: its form stays, to try again the refunds left. */
  withdrawing: boolean;
  releaseDate: string;
  tracks: PreorderTrack[];
  form: ReturnType<typeof formFields>;
  /** The save form had a reply (then its ticks are what was posted). */
  replied: boolean;
  withdrawForm: ReturnType<typeof formFields>;
}) {
  // After a refused save, what was ticked wins over what is stored.
  const ticked = replied ? new Set(form.list("instant")) : null;
  return (
    <Card className="mt-8 max-w-2xl">
      <h2 className="text-xl font-semibold">Pre-order</h2>
      <p className="mt-1 text-sm text-ink-muted">
        {onPreorder
          ? `This ${kind} is on pre-order: fans buy it now, play and download its instant tracks at once, and get the rest on its release day. Moving the day tells its buyers by email.`
          : `Sell this ${kind} before its release day: fans pay the whole ${kind}'s price now, and get its instant tracks at once and the rest on the day.`}
      </p>
      <div className="mt-4">
        <FormAlert tone="success">{withdrawForm.notice ?? form.notice}</FormAlert>
      </div>
      <Form method="post" action={action} noValidate className="mt-4 grid gap-4">
        <input type="hidden" name="intent" value="preorder" />
        <input type="hidden" name="releaseId" value={releaseId} />
        <FormAlert>{form.formError}</FormAlert>
        <Field
          label="Release date"
          type="date"
          hint={`Every track of the ${kind} comes out on this day.`}
          {...form.field("preorderDate", releaseDate)}
        />
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-semibold text-ink">Instant downloads</legend>
          {tracks.map((track) => (
            <label key={track.id} className="flex items-start gap-3 text-sm text-ink-muted">
              <input
                type="checkbox"
                name="instant"
                value={track.id}
                defaultChecked={ticked ? ticked.has(track.id) : track.instant}
                className="mt-0.5 size-5 shrink-0 accent-accent"
              />
              {track.title}
            </label>
          ))}
          {form.error("instant") ? <p className="text-sm text-danger">{form.error("instant")}</p> : null}
        </fieldset>
        <SubmitButton action={action} intent="preorder" pendingLabel="Saving...">
          {onPreorder ? "Save pre-order" : "Put on pre-order"}
        </SubmitButton>
      </Form>
      {onPreorder || withdrawing ? (
        <Form method="post" action={action} noValidate className="mt-6 grid gap-4 border-t border-stage-700 pt-6">
          <input type="hidden" name="intent" value="withdraw-preorder" />
          <input type="hidden" name="releaseId" value={releaseId} />
          <h3 className="font-semibold">Withdraw the pre-order</h3>
          <FormAlert>{withdrawForm.formError}</FormAlert>
          <CheckboxField
            name="confirm"
            label={`I understand that every buyer is refunded in full and told by email, and the ${kind} is hidden until its release day.`}
            error={withdrawForm.error("confirm")}
          />
          <div>
            <Button type="submit" variant="danger">
              Withdraw pre-order
            </Button>
          </div>
        </Form>
      ) : null}
    </Card>
  );
}
