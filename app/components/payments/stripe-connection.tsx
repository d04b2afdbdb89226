import { useId } from "react";
import { Form } from "react-router";
import { FormAlert } from "~/components/form-controls";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FieldError } from "~/components/ui/field";

type Stripe = { account: string | null; ready: boolean };

/** Where payouts go, inside the settings form: PayPal, or the artist's Stripe account once connected. */
export function PayoutMethodChoice({ chosen, stripe, error }: { chosen: "paypal" | "stripe"; stripe: Stripe; error?: string }) {
  const id = useId();
  const options = [
    { value: "paypal", label: "PayPal, to the email above, when your balance reaches your threshold" },
    {
      value: "stripe",
      label: stripe.account
        ? "Stripe: each sale moves to your Stripe account once it settles"
        : "Stripe (connect your account below first)",
    },
  ] as const;
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-semibold text-ink">Payouts go to</legend>
      {options.map((option) => (
        <div key={option.value} className="flex items-start gap-3">
          <input
            id={`${id}-${option.value}`}
            type="radio"
            name="payoutMethod"
            value={option.value}
            defaultChecked={chosen === option.value}
            aria-invalid={error ? true : undefined}
            className="mt-0.5 size-5 shrink-0 accent-accent"
          />
          <label htmlFor={`${id}-${option.value}`} className="text-sm text-ink-muted">
            {option.label}
          </label>
        </div>
      ))}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </fieldset>
  );
}

const states = {
  none: { badge: "Not connected", text: "Connect a Stripe account to be paid into your bank through Stripe.", button: "Connect Stripe" },
  details: {
    badge: "Details needed",
    text: "Stripe needs more details before it can pay you.",
    button: "Finish setting up Stripe",
  },
  ready: { badge: "Ready", text: "Your Stripe account takes payouts.", button: "Update your details on Stripe" },
} as const;

/**
 * The artist's Stripe account: not connected, details needed, or ready, with the way to Stripe's own
 * onboarding (a plain form post, which the action answers with a redirect to Stripe).
 */
export function StripeConnection({
  stripe,
  action,
  step,
  problem,
}: {
  stripe: Stripe;
  action: string;
  step: string | null;
  problem: string | null;
}) {
  const state = stripe.account ? (stripe.ready ? states.ready : states.details) : states.none;
  return (
    <Card className="grid max-w-2xl gap-3">
      <h2 className="flex flex-wrap items-center gap-3 text-xl font-bold">
        Stripe <Badge>{state.badge}</Badge>
      </h2>
      <FormAlert>{problem}</FormAlert>
      {step === "refresh" ? <FormAlert>That Stripe link has expired. Please continue from here.</FormAlert> : null}
      <p className="text-sm text-ink-muted">{state.text}</p>
      <Form method="post" action={action}>
        <input type="hidden" name="intent" value="connect-stripe" />
        <Button type="submit" variant={stripe.ready ? "secondary" : "primary"}>
          {state.button}
        </Button>
      </Form>
    </Card>
  );
}
