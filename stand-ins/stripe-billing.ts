// The billing half of the Stripe stand-in: what a Checkout Session in `mode=subscription` makes once paid
// (a customer, a subscription, its first invoice, paid), the subscriptions' API (retrieve, update
// `cancel_at_period_end`, cancel), their invoices, and test clocks that move a customer's subscriptions on to
// their next period (a renewal invoice paid, or a subscription set to cancel at its period's end deleted).
// Objects are in the shape of the API version the `stripe` package pins (since 2025-03-31.basil an invoice
// names its subscription under `parent.subscription_details`, its payments under `payments`, and a
// subscription's period is on its items), as the events are rendered in the endpoint's version.

/** A recurring price's interval, as `price_data.recurring.interval` takes it (the marketplace's two). */
export type Interval = "month" | "year";

/** What a subscription bills each period: one price, its product's name, and the tax on it once known. */
export type BilledLine = {
  name: string;
  unitAmount: number;
  quantity: number;
  price: string;
  product: string;
  interval: Interval;
  taxBehavior: "exclusive" | "inclusive" | "unspecified";
  /** The tax on one period, as Stripe Tax computed it at checkout (the same address bills every period). */
  tax: { amount: number; rate: { id: string }; taxability_reason: string; taxable_amount: number } | null;
};

export type Customer = {
  id: string;
  object: "customer";
  created: number;
  email: string | null;
  livemode: false;
  metadata: Record<string, string>;
  /** The test clock the customer was made on (its time is the clock's), or null. */
  test_clock: string | null;
};

export type SubscriptionItem = {
  id: string;
  object: "subscription_item";
  current_period_start: number;
  current_period_end: number;
  price: {
    id: string;
    object: "price";
    currency: string;
    product: string;
    recurring: { interval: Interval; interval_count: 1 };
    unit_amount: number;
  };
  quantity: number;
  subscription: string;
};

export type Subscription = {
  id: string;
  object: "subscription";
  billing_cycle_anchor: number;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  created: number;
  currency: string;
  customer: string;
  ended_at: number | null;
  items: { object: "list"; data: SubscriptionItem[]; has_more: false };
  latest_invoice: string | null;
  livemode: false;
  metadata: Record<string, string>;
  start_date: number;
  status: "active" | "canceled";
  test_clock: string | null;
};

export type Invoice = {
  id: string;
  object: "invoice";
  amount_due: number;
  amount_paid: number;
  amount_remaining: 0;
  billing_reason: "subscription_create" | "subscription_cycle";
  created: number;
  currency: string;
  customer: string;
  customer_email: string | null;
  lines: {
    object: "list";
    data: {
      id: string;
      object: "line_item";
      amount: number;
      currency: string;
      description: string;
      period: { start: number; end: number };
      quantity: number;
      pricing: { type: "price_details"; price_details: { price: string; product: string }; unit_amount_decimal: string };
      taxes: {
        amount: number;
        tax_behavior: string;
        taxability_reason: string;
        taxable_amount: number;
        tax_rate_details: { tax_rate: string };
      }[];
    }[];
    has_more: false;
  };
  livemode: false;
  parent: { type: "subscription_details"; subscription_details: { metadata: Record<string, string>; subscription: string } };
  period_start: number;
  period_end: number;
  status: "paid";
  status_transitions: { paid_at: number };
  subtotal: number;
  total: number;
  total_taxes: { amount: number; tax_behavior: string; taxability_reason: string; taxable_amount: number }[];
  test_clock: string | null;
};

export type TestClock = {
  id: string;
  object: "test_helpers.test_clock";
  created: number;
  deletes_after: number;
  frozen_time: number;
  livemode: false;
  name: string | null;
  status: "ready" | "advancing";
};

type Answer = [number, unknown];

export type BillingDeps = {
  id: (prefix: string) => string;
  /** The stand-in's own time (a customer without a test clock lives in it). */
  now: () => number;
  send: (type: string, object: Subscription | Invoice) => void;
  /** A charge of `amount` on the card the session was paid with; its payment intent (its charge and balance transaction kept as a session's). */
  charge: (amount: number, currency: string) => string;
  error: (type: string, message: string, param?: string) => unknown;
};

/** One interval on from `from` (UTC calendar months or years, as Stripe bills: the 31st's month ends on the last day of a shorter one). */
export function periodEnd(from: number, interval: Interval): number {
  const start = new Date(from * 1000);
  const end = new Date(start);
  const day = start.getUTCDate();
  end.setUTCDate(1);
  if (interval === "month") end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return Math.floor(end.getTime() / 1000);
}

export function startBilling(deps: BillingDeps) {
  const customers = new Map<string, Customer>();
  const subscriptions = new Map<string, Subscription>();
  /** Each subscription's line and the card's country, billed again each period. */
  const billed = new Map<string, BilledLine>();
  const invoices = new Map<string, Invoice>();
  /** Each invoice's payment intent (its `payments`, when expanded). */
  const invoicePayments = new Map<string, string>();
  const clocks = new Map<string, TestClock>();
  /**
   * The clock the next customers Checkout makes are made on: Checkout cannot name one (a test clock is
   * attached "to new customers", Stripe's Test clocks guide, made through the API), so tests set it on the
   * stand-in (`POST /_test_clock`, its own) before the fan pays.
   */
  let checkoutClock: string | null = null;

  const timeOf = (customer: string) => {
    const clock = customers.get(customer)?.test_clock;
    return clock ? clocks.get(clock)!.frozen_time : deps.now();
  };

  /** An invoice for one period of `subscription`, paid at once with the card on file, and `invoice.paid` sent. */
  function invoicePeriod(subscription: Subscription, reason: Invoice["billing_reason"]): Invoice {
    const line = billed.get(subscription.id)!;
    const item = subscription.items.data[0]!;
    const subtotal = line.unitAmount * line.quantity;
    const tax = line.tax?.amount ?? 0;
    const total = subtotal + (line.taxBehavior === "inclusive" ? 0 : tax);
    const at = timeOf(subscription.customer);
    const taxes = line.tax
      ? [
          {
            amount: line.tax.amount,
            tax_behavior: line.taxBehavior,
            taxability_reason: line.tax.taxability_reason,
            taxable_amount: line.tax.taxable_amount,
            tax_rate_details: { tax_rate: line.tax.rate.id },
          },
        ]
      : [];
    const invoice: Invoice = {
      id: deps.id("in"),
      object: "invoice",
      amount_due: total,
      amount_paid: total,
      amount_remaining: 0,
      billing_reason: reason,
      created: at,
      currency: subscription.currency,
      customer: subscription.customer,
      customer_email: customers.get(subscription.customer)?.email ?? null,
      lines: {
        object: "list",
        data: [
          {
            id: deps.id("il"),
            object: "line_item",
            amount: subtotal,
            currency: subscription.currency,
            description: `${line.quantity} × ${line.name} (per ${line.interval})`,
            period: { start: item.current_period_start, end: item.current_period_end },
            quantity: line.quantity,
            pricing: {
              type: "price_details",
              price_details: { price: line.price, product: line.product },
              unit_amount_decimal: String(line.unitAmount),
            },
            taxes,
          },
        ],
        has_more: false,
      },
      livemode: false,
      parent: {
        type: "subscription_details",
        subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
      },
      // An invoice's own period is the one before its lines' ("End of the usage period during which invoice
      // items were added"): a subscription's invoice bills its lines' period in advance.
      period_start: at,
      period_end: at,
      status: "paid",
      status_transitions: { paid_at: at },
      subtotal,
      total,
      total_taxes: taxes.map(({ tax_rate_details: _rate, ...rest }) => rest),
      test_clock: subscription.test_clock,
    };
    invoices.set(invoice.id, invoice);
    invoicePayments.set(invoice.id, deps.charge(total, subscription.currency));
    subscription.latest_invoice = invoice.id;
    deps.send("invoice.paid", invoice);
    return invoice;
  }

  /**
   * A paid subscription-mode session's customer, subscription (active, its first period from now) and first
   * invoice (`billing_reason: subscription_create`), paid; `invoice.paid` is sent before the session's
   * `checkout.session.completed` as Stripe's may be ("Stripe doesn't guarantee the delivery of events in the
   * order in which they're generated", the Webhooks guide).
   */
  function subscribe(email: string, line: BilledLine, currency: string, metadata: Record<string, string>) {
    const clock = checkoutClock;
    const customer: Customer = {
      id: deps.id("cus"),
      object: "customer",
      created: 0,
      email,
      livemode: false,
      metadata: {},
      test_clock: clock,
    };
    customers.set(customer.id, customer);
    const start = timeOf(customer.id);
    customer.created = start;
    const subscriptionId = deps.id("sub");
    const subscription: Subscription = {
      id: subscriptionId,
      object: "subscription",
      billing_cycle_anchor: start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      created: start,
      currency,
      customer: customer.id,
      ended_at: null,
      items: {
        object: "list",
        data: [
          {
            id: deps.id("si"),
            object: "subscription_item",
            current_period_start: start,
            current_period_end: periodEnd(start, line.interval),
            price: {
              id: line.price,
              object: "price",
              currency,
              product: line.product,
              recurring: { interval: line.interval, interval_count: 1 },
              unit_amount: line.unitAmount,
            },
            quantity: line.quantity,
            subscription: subscriptionId,
          },
        ],
        has_more: false,
      },
      latest_invoice: null,
      livemode: false,
      metadata,
      start_date: start,
      status: "active",
      test_clock: clock,
    };
    subscriptions.set(subscription.id, subscription);
    billed.set(subscription.id, line);
    const invoice = invoicePeriod(subscription, "subscription_create");
    return { customer: customer.id, subscription: subscription.id, invoice: invoice.id };
  }

  /**
   * A subscription on at the clock's time: each period that ended renews (a new period, its invoice paid,
   * `invoice.paid` and `customer.subscription.updated`), unless it was set to cancel at its period's end:
   * then it is canceled at that end and `customer.subscription.deleted` is sent ("If you cancel a
   * subscription at the end of the period, Stripe sends customer.subscription.deleted when the period
   * ends", Stripe's "Cancel subscriptions").
   */
  function runTo(subscription: Subscription, time: number) {
    const item = subscription.items.data[0]!;
    while (subscription.status === "active" && item.current_period_end <= time) {
      if (subscription.cancel_at_period_end) {
        Object.assign(subscription, {
          status: "canceled",
          ended_at: item.current_period_end,
          canceled_at: subscription.canceled_at ?? item.current_period_end,
        });
        deps.send("customer.subscription.deleted", subscription);
        return;
      }
      item.current_period_start = item.current_period_end;
      item.current_period_end = periodEnd(item.current_period_start, billed.get(subscription.id)!.interval);
      invoicePeriod(subscription, "subscription_cycle");
      deps.send("customer.subscription.updated", subscription);
    }
  }

  const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/;
  const invoicePath = /^\/v1\/invoices\/([^/]+)$/;
  const clockPath = /^\/v1\/test_helpers\/test_clocks\/([^/]+)(\/advance)?$/;

  /** The billing API, or null for a path that is not billing's. */
  function api(method: string, path: string, params: Record<string, unknown>, expand: Set<string>): Answer | null {
    const subscriptionMatch = subscriptionPath.exec(path);
    if (subscriptionMatch) {
      const subscription = subscriptions.get(subscriptionMatch[1]!);
      if (!subscription) return [404, deps.error("invalid_request_error", `No such subscription: '${subscriptionMatch[1]}'`, "id")];
      if (method === "GET") return [200, subscription];
      if (method === "DELETE") return cancel(subscription);
      if (method === "POST") return update(subscription, params);
    }
    const invoiceMatch = invoicePath.exec(path);
    if (invoiceMatch && method === "GET") {
      const invoice = invoices.get(invoiceMatch[1]!);
      if (!invoice) return [404, deps.error("invalid_request_error", `No such invoice: '${invoiceMatch[1]}'`, "invoice")];
      // "payments" is includable: absent unless asked (`expand[]=payments`), each a payment intent's.
      if (!expand.has("payments")) return [200, invoice];
      const intent = invoicePayments.get(invoice.id)!;
      const payment = {
        id: `inpay_${intent}`,
        object: "invoice_payment",
        amount_paid: invoice.amount_paid,
        currency: invoice.currency,
        invoice: invoice.id,
        is_default: true,
        payment: { type: "payment_intent", payment_intent: intent },
        status: "paid",
      };
      return [200, { ...invoice, payments: { object: "list", data: [payment], has_more: false } }];
    }
    if (method === "POST" && path === "/v1/test_helpers/test_clocks") {
      const frozenTime = Number(params.frozen_time);
      if (!Number.isInteger(frozenTime))
        return [400, deps.error("invalid_request_error", "Missing required param: frozen_time.", "frozen_time")];
      const clock: TestClock = {
        id: deps.id("clock"),
        object: "test_helpers.test_clock",
        created: deps.now(),
        // "Test clocks automatically delete 30 days after creation" (Stripe's Test clocks guide); kept here.
        deletes_after: deps.now() + 30 * 24 * 3600,
        frozen_time: frozenTime,
        livemode: false,
        name: typeof params.name === "string" ? params.name : null,
        status: "ready",
      };
      clocks.set(clock.id, clock);
      return [200, clock];
    }
    const clockMatch = clockPath.exec(path);
    if (clockMatch) {
      const clock = clocks.get(clockMatch[1]!);
      if (!clock) return [404, deps.error("invalid_request_error", `No such test_helpers.test_clock: '${clockMatch[1]}'`, "test_clock")];
      if (method === "GET" && !clockMatch[2]) return [200, clock];
      if (method === "POST" && clockMatch[2]) return advance(clock, Number(params.frozen_time));
    }
    return null;
  }

  /**
   * `cancel_at_period_end` set or taken back (`customer.subscription.updated` sent); the subscription stays
   * active to its period's end ("the subscription remains active until the end of the period", Stripe's
   * "Cancel subscriptions"). Anything else this stand-in does not change.
   */
  function update(subscription: Subscription, params: Record<string, unknown>): Answer {
    if (subscription.status === "canceled")
      return [400, deps.error("invalid_request_error", "A canceled subscription can only update its cancellation_details and metadata.")];
    const flag = params.cancel_at_period_end;
    if (flag !== "true" && flag !== "false")
      return [400, deps.error("invalid_request_error", "This stand-in updates cancel_at_period_end alone.", "cancel_at_period_end")];
    const cancelling = flag === "true";
    if (subscription.cancel_at_period_end !== cancelling) {
      const item = subscription.items.data[0]!;
      Object.assign(subscription, {
        cancel_at_period_end: cancelling,
        cancel_at: cancelling ? item.current_period_end : null,
        canceled_at: cancelling ? timeOf(subscription.customer) : null,
      });
      deps.send("customer.subscription.updated", subscription);
    }
    return [200, subscription];
  }

  /** Canceled at once (`DELETE`): "the customer won't be charged again", and `customer.subscription.deleted` is sent. */
  function cancel(subscription: Subscription): Answer {
    if (subscription.status === "canceled")
      return [400, deps.error("invalid_request_error", `No such subscription: '${subscription.id}' is already canceled.`)];
    const at = timeOf(subscription.customer);
    Object.assign(subscription, { status: "canceled", canceled_at: at, ended_at: at });
    deps.send("customer.subscription.deleted", subscription);
    return [200, subscription];
  }

  /**
   * A clock moved on to `frozenTime`: answered `advancing` at once, its subscriptions then run to that time
   * and it is `ready` again ("Advancement is done when status changes to Ready"). It may move at most two
   * intervals past the shortest subscription on it ("Cannot be more than two intervals in the future from
   * the shortest subscription in this test clock"), never back.
   */
  function advance(clock: TestClock, frozenTime: number): Answer {
    if (!Number.isInteger(frozenTime) || frozenTime <= clock.frozen_time)
      return [
        400,
        deps.error("invalid_request_error", "The frozen_time must be after the test clock's current frozen time.", "frozen_time"),
      ];
    if (clock.status !== "ready") return [400, deps.error("invalid_request_error", "The test clock is advancing; wait until it is ready.")];
    const onClock = [...subscriptions.values()].filter(
      (subscription) => subscription.test_clock === clock.id && subscription.status === "active",
    );
    const furthest = onClock.length
      ? Math.min(
          ...onClock.map((subscription) => {
            const interval = billed.get(subscription.id)!.interval;
            return periodEnd(periodEnd(clock.frozen_time, interval), interval);
          }),
        )
      : periodEnd(periodEnd(clock.frozen_time, "year"), "year");
    if (frozenTime > furthest)
      return [
        400,
        deps.error(
          "invalid_request_error",
          "The frozen_time cannot be more than two intervals ahead of the shortest subscription on this test clock.",
          "frozen_time",
        ),
      ];
    clock.status = "advancing";
    const answer = structuredClone(clock);
    setImmediate(() => {
      clock.frozen_time = frozenTime;
      for (const subscription of onClock) runTo(subscription, frozenTime);
      clock.status = "ready";
    });
    return [200, answer];
  }

  return {
    subscriptions: subscriptions as ReadonlyMap<string, Subscription>,
    invoices: invoices as ReadonlyMap<string, Invoice>,
    subscribe,
    api,
    /** The stand-in's own switch (`POST /_test_clock`): the clock Checkout's next customers are made on, or none. */
    useClock(clock: string | null): boolean {
      if (clock !== null && !clocks.has(clock)) return false;
      checkoutClock = clock;
      return true;
    },
    /** Subscriptions on no clock run on the stand-in's own time, when it moves (`advanceClock`). */
    runUnclocked() {
      for (const subscription of subscriptions.values()) if (!subscription.test_clock) runTo(subscription, deps.now());
    },
  };
}
