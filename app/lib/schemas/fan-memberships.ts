import * as v from "valibot";
import { currencies } from "~/lib/constants";
import { idSchema } from "./text";

// A fan's memberships as their Memberships page reads them, and its one form: a membership's cancel confirmed.

/** A membership of the fan's, read through row-level security (members read their own), with its tier and artist. */
export const FanMembershipsSchema = v.array(
  v.object({
    id: v.string(),
    billing_interval: v.picklist(["month", "year"]),
    amount_cents: v.number(),
    currency: v.picklist(currencies),
    state: v.picklist(["active", "cancelling", "ended"]),
    current_period_end: v.string(),
    ended_at: v.nullable(v.string()),
    tier: v.object({ name: v.string() }),
    artist: v.object({ id: v.string(), artist_name: v.string() }),
  }),
);
export type FanMembership = v.InferOutput<typeof FanMembershipsSchema>[number];

/** The confirmed cancel of one membership. */
export const CancelMembershipSchema = v.object({ membershipId: idSchema() });
