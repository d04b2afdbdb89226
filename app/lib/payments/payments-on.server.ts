import type { RouterContextProvider } from "react-router";
import { envFrom } from "~/lib/http/env.server";
import { checkoutProvider } from "~/lib/providers/payments.server";

/** Whether fans can pay (a payment provider is configured): Buy Now offers the cart and checkout, instead of "available soon". */
export const paymentsOn = (context: Readonly<RouterContextProvider>) => checkoutProvider(envFrom(context)) !== null;
