import * as v from "valibot";
import { currencies, membershipLimits } from "~/lib/constants";
import { idSchema, optionalText, requiredText } from "./text";

// The studio's membership forms: a tier saved (added, or edited with its id), and a tier closed, reopened
// or deleted. One schema per form.

const checkbox = v.pipe(
  v.optional(v.string(), ""),
  v.transform((value) => value === "on" || value === "true"),
);

/** "5,000.00": a bound as its message writes it, in no currency (the form's currency names it). */
const amountText = (cents: number) => (cents / 100).toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount typed in the currency's units ("5", "4.99"), within `bounds`, kept in cents; empty is `null` where it may be. */
const amount = (what: string, bounds: { min: number; max: number }, required: boolean) => {
  const message = `${what} must be from ${amountText(bounds.min)} to ${amountText(bounds.max)}, in cents at most${required ? "" : ", or empty"}`;
  return v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.check((typed: string) => !required || typed !== "", `${what} is required`),
    v.check((typed: string) => typed === "" || /^\d+(\.\d{1,2})?$/.test(typed), message),
    v.transform((typed: string) => (typed === "" ? null : Math.round(Number(typed) * 100))),
    v.check((cents: number | null) => cents === null || (cents >= bounds.min && cents <= bounds.max), message),
  );
};

/** A tier, added (no id) or edited (its id): what it is called, costs and gives. */
export const SaveTierSchema = v.object({
  intent: v.literal("save"),
  tierId: v.optional(v.union([v.literal(""), idSchema()]), ""),
  name: requiredText("Every tier needs a name", membershipLimits.name, "Tier names"),
  description: optionalText(membershipLimits.description, "Descriptions"),
  monthlyPrice: v.pipe(
    amount("A month's price", membershipLimits.monthlyCents, true),
    v.transform((cents) => cents ?? 0),
  ),
  yearlyPrice: amount("A year's price", membershipLimits.yearlyCents, false),
  currency: v.picklist(currencies, "Choose a currency"),
  allowPayMore: checkbox,
  newReleases: checkbox,
  backCatalogue: checkbox,
  discountPercent: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.transform((typed) => (typed === "" ? 0 : Number(typed))),
    v.check((value) => Number.isInteger(value) && value >= 0 && value <= 100, "A discount is a whole percent from 0 to 100"),
  ),
});

/** A tier closed to new members, opened again, or deleted (one with no members alone). */
export const TierStateSchema = v.object({
  intent: v.picklist(["close", "reopen", "delete"]),
  tierId: idSchema(),
});

/** A tier as the studio reads it (studio_memberships), with its newest members. */
export const StudioTiersSchema = v.array(
  v.object({
    id: v.string(),
    name: v.string(),
    description: v.string(),
    monthly_price_cents: v.number(),
    yearly_price_cents: v.nullable(v.number()),
    currency: v.picklist(currencies),
    allow_pay_more: v.boolean(),
    grants_new_releases: v.boolean(),
    grants_back_catalogue: v.boolean(),
    discount_percent: v.number(),
    closed: v.boolean(),
    member_count: v.number(),
    has_members: v.boolean(),
    members: v.array(
      v.object({
        id: v.string(),
        name: v.string(),
        joined_at: v.string(),
        state: v.picklist(["active", "cancelling", "ended"]),
        billing_interval: v.picklist(["month", "year"]),
      }),
    ),
  }),
);
export type StudioTier = v.InferOutput<typeof StudioTiersSchema>[number];

/**
 * A fan's Join on an artist's page: the tier, monthly or yearly, and (a tier that lets fans pay more) what
 * they pay a period, empty for its price. The action checks it against the tier.
 */
export const JoinTierSchema = v.object({
  intent: v.literal("join"),
  tierId: idSchema(),
  interval: v.optional(v.picklist(["month", "year"], "Choose monthly or yearly"), "month"),
  amount: amount("What you pay", { min: membershipLimits.monthlyCents.min, max: membershipLimits.yearlyCents.max }, false),
});
