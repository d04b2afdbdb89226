// The cart on the server: a signed-in fan's lines in the database (cart_lines, their own by row-level
// security), a visitor's in a cookie until they sign in (when they join the account's), the typed codes and
// the country merch ships to in cookies for everyone; priced by the database alone (price_cart), and paid through one checkout per
// currency (lib/orders/checkout.server.ts).
import { parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import { readOrThrow } from "~/lib/backend/backend.server";
import { sessionCookieOptions, type SupabaseClient } from "~/lib/backend/supabase.server";
import { clientAddress } from "~/lib/http/context.server";
import { isShippingCountry, type ShippingCountry } from "~/lib/payments/shipping";
import {
  cartCookie,
  cartLimit,
  codesCookie,
  decodeCartLines,
  decodeCodes,
  encodeCartLines,
  encodeCodes,
  PricedCartSchema,
  sameItem,
  shipToCookie,
  type CartLine,
  type PricedCart,
} from "~/lib/payments/cart";

/**
 * Whose cart: the request's backend client, and the one the marketplace vouches for (by which the database
 * believes the client's address), whether it is signed in (its cart is then in the database), and the
 * country the request comes from (Cloudflare's; null where unknown), where merch ships unless they choose.
 */
export type Shopper = { supabase: SupabaseClient; vouched: () => SupabaseClient; signedIn: boolean; country: string | null };

/** How long a visitor's cart and the typed codes are kept: thirty days. */
const cartMaxAge = 60 * 60 * 24 * 30;

const cookieValue = (request: Request, name: string) =>
  parseCookieHeader(request.headers.get("Cookie") ?? "").find((cookie) => cookie.name === name)?.value;

/** A visitor's lines, as their cookie holds them. */
export const visitorLines = (request: Request) => decodeCartLines(cookieValue(request, cartCookie));

/** The codes typed into the cart. */
export const typedCodes = (request: Request) => decodeCodes(cookieValue(request, codesCookie));

/** The country the cart's merch ships to: the one chosen, or else where the buyer is (`country`, Cloudflare's), if either. */
export function shipTo(request: Request, country: string | null): ShippingCountry | null {
  const chosen = cookieValue(request, shipToCookie) ?? country;
  return isShippingCountry(chosen) ? chosen : null;
}

const setCookie = (request: Request, name: string, value: string) =>
  serializeCookieHeader(name, value, { ...sessionCookieOptions(request, false), maxAge: value ? cartMaxAge : 0 });

export const visitorCartCookie = (request: Request, lines: readonly CartLine[]) => setCookie(request, cartCookie, encodeCartLines(lines));
export const codesCookieHeader = (request: Request, codes: readonly string[]) => setCookie(request, codesCookie, encodeCodes(codes));
export const shipToCookieHeader = (request: Request, country: ShippingCountry) => setCookie(request, shipToCookie, country);

/**
 * The cart priced for whoever asks, in one read: a signed-in fan's own lines (the database reads them), a
 * visitor's from their cookie; with `codes` (the typed ones), and merch's shipping to the chosen country.
 * The marketplace (vouching with its secret) names the client's address, by which typing codes is limited.
 */
export async function pricedCart(
  request: Request,
  { vouched, signedIn, country }: Shopper,
  codes: readonly string[] = typedCodes(request),
): Promise<PricedCart> {
  const { data, error } = await vouched().rpc("price_cart", {
    ...(signedIn ? {} : { lines: visitorLines(request).map(asJson) }),
    codes: [...codes],
    ship_to: shipTo(request, country) ?? undefined,
    address: clientAddress(request) ?? undefined,
  });
  return readOrThrow({ data, error }, { what: "cart", schema: PricedCartSchema });
}

/** How many lines the cart holds: the header's count. */
export async function cartCount(request: Request, { supabase, signedIn }: Shopper): Promise<number> {
  if (!signedIn) return visitorLines(request).length;
  const { count, error } = await supabase.from("cart_lines").select("kind", { count: "exact", head: true });
  if (error) console.error("counting the cart failed", error);
  return count ?? 0;
}

/** Why a change to the cart was refused; null when it was made. */
export type CartRefusal = string | null;

const cartFull = `Your cart holds at most ${cartLimit} items. Please check out or remove something first.`;

/**
 * Puts lines into the cart (a line it holds takes the new amount): a signed-in fan's through add_to_cart,
 * a visitor's into their cookie (`cookies` receives the header to set).
 */
export async function putInCart(
  request: Request,
  { supabase, signedIn }: Shopper,
  lines: readonly CartLine[],
  cookies: Headers,
): Promise<CartRefusal> {
  if (signedIn) {
    const { error } = await supabase.rpc("add_to_cart", { lines: lines.map(asJson) });
    if (!error) return null;
    if (error.code === "54000") return cartFull;
    console.error("adding to the cart failed", error);
    return "Your cart could not be changed. Please try again.";
  }
  const kept = visitorLines(request);
  for (const line of lines) {
    const held = kept.findIndex((candidate) => sameItem(candidate, line));
    if (held >= 0) kept[held] = line;
    else if (kept.length >= cartLimit) return cartFull;
    else kept.push(line);
  }
  cookies.append("Set-Cookie", visitorCartCookie(request, kept));
  return null;
}

/** Takes a line out of the cart. */
export async function takeFromCart(
  request: Request,
  { supabase, signedIn }: Shopper,
  item: Pick<CartLine, "kind" | "id">,
  cookies: Headers,
): Promise<void> {
  if (signedIn) {
    const { error } = await supabase.from("cart_lines").delete().eq("kind", item.kind).eq("item_id", item.id);
    if (error) console.error("removing from the cart failed", error);
    return;
  }
  cookies.append(
    "Set-Cookie",
    visitorCartCookie(
      request,
      visitorLines(request).filter((line) => !sameItem(line, item)),
    ),
  );
}

/**
 * A visitor's cart joining the account they just signed in to (add_to_cart, as that account): `cookies`
 * receives the header that empties the cookie. Nothing happens without one.
 */
export async function joinVisitorCart(request: Request, supabase: SupabaseClient, cookies: Headers): Promise<void> {
  const lines = visitorLines(request);
  if (lines.length === 0) return;
  const { error } = await supabase.rpc("add_to_cart", { lines: lines.map(asJson) });
  // A cart past its bound keeps what fitted; the cookie goes either way, so a sign-in never fails over it.
  if (error) console.error("joining a visitor's cart to their account failed", error);
  cookies.append("Set-Cookie", visitorCartCookie(request, []));
}

/** A line as the database takes it (add_to_cart, price_cart, open_order). */
export const asJson = (line: CartLine) => ({ kind: line.kind, id: line.id, amount: line.amount, quantity: line.quantity });
