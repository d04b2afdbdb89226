import * as v from "valibot";
import { banDays, textLimits } from "~/lib/constants";
import { mailKindLabels } from "~/lib/mail-kinds";
import { idSchema, requiredText } from "./text";

// Administration's forms and data (spec sections 4 and 5: News item, Ban). One schema per form.

export const newsTypes = ["info", "update", "announcement"] as const;

/** A news item as added or edited: title and content required; a new one is active and 'info' unless chosen otherwise. */
export const NewsItemFormSchema = v.object({
  title: requiredText("Title is required", textLimits.newsTitle, "Title"),
  content: requiredText("Content is required", textLimits.newsContent, "Content"),
  type: v.optional(v.picklist(newsTypes, "Choose info, update or announcement"), "info"),
  active: v.pipe(
    v.optional(v.string(), ""),
    v.transform((value) => value === "on"),
  ),
});

/** Which item a change is about. */
export const NewsItemIdSchema = v.object({ id: idSchema("This news item no longer exists") });

export const DeleteNewsSchema = v.object({
  id: idSchema("This news item no longer exists"),
  confirm: v.pipe(
    v.optional(v.string(), ""),
    v.check((value) => value === "on", "Tick the box to confirm you want to delete this news item"),
  ),
});

export const NewsItemsSchema = v.array(
  v.object({
    id: v.string(),
    title: v.string(),
    content: v.string(),
    type: v.picklist(newsTypes),
    active: v.boolean(),
    created_at: v.string(),
  }),
);

export const AuditLogSchema = v.array(
  v.object({
    id: v.string(),
    actor_email: v.nullable(v.string()),
    action: v.string(),
    summary: v.string(),
    reason: v.nullable(v.string()),
    created_at: v.string(),
  }),
);

/** A page of users as the admin-users Edge Function answers it. */
export const UsersPageSchema = v.object({
  users: v.array(
    v.object({
      id: v.string(),
      email: v.string(),
      role: v.string(),
      created_at: v.string(),
      last_sign_in_at: v.nullable(v.string()),
      banned_until: v.nullable(v.string()),
    }),
  ),
  total: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

export const SentSchema = v.object({ sent: v.literal(true) });
export const BannedSchema = v.object({ banned_until: v.nullable(v.string()) });

const userId = idSchema("This user no longer exists");

/** Which user a password reset or an unban is for. */
export const UserIdSchema = v.object({ userId });

const banDaysMessage = `Ban for a whole number of days, from ${banDays.minimum} to ${banDays.maximum.toLocaleString("en-US")}`;

/** Spec section 5, Ban: whole days, at least 1 (default 30); the reason is free text. */
export const BanSchema = v.object({
  userId,
  days: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.regex(/^\d+$/, banDaysMessage),
    v.transform(Number),
    v.minValue(banDays.minimum, banDaysMessage),
    v.maxValue(banDays.maximum, banDaysMessage),
  ),
  reason: v.pipe(v.optional(v.string(), ""), v.trim(), v.maxLength(1000, "Reason can be at most 1000 characters")),
});

/** The marketplace's money as administrators read it (`admin_money`), in cents per currency. */
export const AdminMoneySchema = v.object({
  currencies: v.array(
    v.object({
      currency: v.string(),
      gross: v.number(),
      crate: v.number(),
      refunded: v.number(),
      paid_out: v.number(),
      failed: v.number(),
      failed_count: v.number(),
      due: v.number(),
      disputed: v.number(),
      dispute_count: v.number(),
    }),
  ),
  attention: v.array(
    v.object({
      artist_id: v.string(),
      artist_name: v.string(),
      currency: v.string(),
      available: v.number(),
      failure: v.nullable(v.string()),
      /** When their newest payout failed; null for a Stripe account that is not ready. */
      failed_at: v.nullable(v.string()),
    }),
  ),
  /** Payouts waiting for their artist to claim them at PayPal, the longest waiting first. */
  unclaimed: v.array(
    v.object({
      artist_id: v.string(),
      artist_name: v.string(),
      currency: v.string(),
      amount: v.number(),
      recipient: v.string(),
      unclaimed_at: v.string(),
    }),
  ),
});
export type AdminMoney = v.InferOutput<typeof AdminMoneySchema>;

/** The payment provider's events its webhook could not apply (`failed_payment_events`): how many, and the newest. */
export const FailedPaymentEventsSchema = v.object({
  count: v.number(),
  events: v.array(
    v.object({
      event_id: v.string(),
      provider: v.string(),
      event_type: v.string(),
      account: v.nullable(v.string()),
      failure: v.string(),
      attempts: v.number(),
      first_failed_at: v.string(),
      last_failed_at: v.string(),
    }),
  ),
});
export type FailedPaymentEvents = v.InferOutput<typeof FailedPaymentEventsSchema>;

/** "Apply again": the event, as the list of those not applied names it. */
export const ApplyEventSchema = v.object({ eventId: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(255)) });

/** Mail the queue gave up after its last retry (`mails_given_up`): how many, and the newest. */
export const MailsGivenUpSchema = v.object({
  count: v.number(),
  mails: v.array(
    v.object({
      id: v.string(),
      kind: v.picklist(Object.keys(mailKindLabels) as (keyof typeof mailKindLabels)[]),
      recipient: v.string(),
      attempts: v.number(),
      last_error: v.nullable(v.string()),
      given_up_at: v.string(),
    }),
  ),
});
export type MailsGivenUp = v.InferOutput<typeof MailsGivenUpSchema>;

/** "Send again" on a mail not sent. */
export const SendMailAgainSchema = v.object({ mailId: idSchema("This mail is no longer waiting") });

/** The tax Crate collected as the seller (`tax_collected`): per country, tax, rate and currency, in cents. */
export const TaxCollectedSchema = v.array(
  v.object({
    country: v.nullable(v.string()),
    tax_name: v.nullable(v.string()),
    rate: v.nullable(v.number()),
    currency: v.string(),
    /** The sales it was charged on, before tax. */
    sales: v.number(),
    tax: v.number(),
    /** The part of it given back with refunds since. */
    refunded_tax: v.number(),
  }),
);
export type TaxCollected = v.InferOutput<typeof TaxCollectedSchema>;
