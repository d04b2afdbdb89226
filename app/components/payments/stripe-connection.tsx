import { useId } from "react";
import { Form } from "react-router";
import { FormAlert } from "~/components/form-controls";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FieldError, SelectField } from "~/components/ui/field";
import { shippingCountryOptions } from "~/lib/payments/shipping";

type Stripe = { account: string | null; ready: boolean };

/** Where payouts go, inside the settings form: PayPal, or the artist's Stripe account once it is ready. */
export function PayoutMethodChoice({ chosen, stripe, error }: { chosen: "paypal" | "stripe"; stripe: Stripe; error?: string }) {
  const id = useId();
  const options = [
    { value: "paypal", label: "PayPal, to the email above, when your balance reaches your threshold" },
    {
      value: "stripe",
      label: stripe.ready
        ? "Stripe: each sale moves to your Stripe account once it settles"
        : stripe.account
          ? "Stripe (finish setting up your account below first)"
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
 * onboarding for it or for another in its place (a plain form post with the account's password, which the
 * action answers with a redirect to Stripe).
 */
export function StripeConnection({
  stripe,
  action,
  step,
  problem,
  passwordError,
  country,
  countryError,
}: {
  stripe: Stripe;
  action: string;
  step: string | null;
  problem: string | null;
  passwordError?: string | undefined;
  /** Where the artist's bank is, for an account made now: as chosen, else the platform's country. */
  country: string;
  countryError?: string | undefined;
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
      <Form method="post" action={action} noValidate className="grid gap-3">
        <input type="hidden" name="intent" value="connect-stripe" />
        <SelectField
          label="Country of your bank account"
          name="country"
          options={shippingCountryOptions()}
          defaultValue={country}
          error={countryError}
          className="max-w-sm"
        />
        <Field
          label="Password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          hint={
            stripe.account
              ? "Your account's password, before Stripe's pages open. Another account replaces this one, and we email you when it is connected."
              : "Your account's password, before Stripe's pages open. We email you when an account is connected."
          }
          error={passwordError}
          className="max-w-sm"
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="connection" value="this" variant={stripe.ready ? "secondary" : "primary"}>
            {state.button}
          </Button>
          {stripe.account ? (
            <Button type="submit" name="connection" value="another" variant="secondary">
              Connect another Stripe account
            </Button>
          ) : null}
        </div>
      </Form>
    </Card>
  );
}
