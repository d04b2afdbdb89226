import type { ReactNode } from "react";
import { CheckboxField } from "~/components/form-controls";
import { Field, TextareaField } from "~/components/ui/field";
import { textLimits } from "~/lib/constants";
import { formFields, type FormReply } from "~/lib/forms/forms";
import { giftDates } from "~/lib/payments/gifts";

/**
 * "Buy as a gift": the recipient's email, a message and the send date, inside a disclosure that opens by
 * itself when a reply concerns them (their messages beside them, as typed). Plain fields, so the form
 * works without JavaScript; `ticked`: whether a checkbox turns the gift on (the cart), rather than a
 * button of its own (the purchase dialog).
 */
export function GiftFields({ reply, ticked, children }: { reply?: FormReply | undefined; ticked: boolean; children?: ReactNode }) {
  const form = formFields(reply);
  const { first, last } = giftDates();
  const open = reply?.values.gift === "on" || reply?.values.intent === "gift";
  return (
    <details open={open} className="rounded-xl border border-stage-700 bg-stage-900 p-3">
      <summary className="cursor-pointer font-semibold">Buy as a gift</summary>
      <div className="mt-3 grid gap-3">
        {ticked ? (
          <CheckboxField name="gift" label="Buy everything in this checkout as a gift: it is theirs, not yours" defaultChecked={open} />
        ) : null}
        <Field
          label="Recipient’s email"
          name="recipientEmail"
          type="email"
          autoComplete="off"
          defaultValue={form.text("recipientEmail")}
          error={form.error("recipientEmail")}
        />
        <TextareaField
          label="Message (optional)"
          name="giftMessage"
          rows={3}
          maxLength={textLimits.giftMessage}
          defaultValue={form.text("giftMessage")}
          error={form.error("giftMessage")}
          hint={`At most ${textLimits.giftMessage} characters.`}
        />
        <Field
          label="Send on"
          name="sendOn"
          type="date"
          min={first}
          max={last}
          defaultValue={form.text("sendOn") || first}
          error={form.error("sendOn")}
          hint="Today, or up to 30 days ahead: they are mailed a link to claim it then."
        />
        {children}
      </div>
    </details>
  );
}
