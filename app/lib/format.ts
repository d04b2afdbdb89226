// How the product writes money, times and dates (spec section 9), in one place. Everything here gives
// the same text on the server and in the browser for the same input, so hydration never disagrees:
// callers pass the locale and "now" the loader chose instead of reading the browser's.

// One formatter per currency, made once (the catalog's three: USD, EUR, GBP).
const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    moneyFormats.set(currency, format);
  }
  return format;
}

/** A price or revenue in `currency` (the artist's; USD where none is named), two decimals: "$1.99", "€1.99". */
export function formatPrice(amount: number | string, currency = "USD"): string {
  return moneyFormat(currency).format(Number(amount));
}

/** An amount in cents of `currency`, as checkout counts money: "$1.99", "€1.99", "£1.99". */
export function formatMoney(cents: number, currency: string): string {
  return moneyFormat(currency).format(cents / 100);
}

// One formatter, made once: `Number.prototype.toLocaleString` builds a new one on every call, which a
// page with dozens of counts pays for on every render.
const wholeNumber = new Intl.NumberFormat("en-US");

/** A count with thousands separators: "1,234". */
export function formatCount(count: number): string {
  return wholeNumber.format(count);
}

const minute = 60;
const hour = 60 * minute;
const day = 24 * hour;
const month = 30 * day;

/** 'just now' under a minute, then minutes, hours, days (under 30), then months: "5m ago", "2mo ago". */
export function formatTimeAgo(date: string | Date, now: number | Date = Date.now()): string {
  const seconds = Math.max(0, Math.floor((Number(now) - new Date(date).getTime()) / 1000));
  if (seconds < minute) return "just now";
  if (seconds < hour) return `${Math.floor(seconds / minute)}m ago`;
  if (seconds < day) return `${Math.floor(seconds / hour)}h ago`;
  if (seconds < month) return `${Math.floor(seconds / day)}d ago`;
  return `${Math.floor(seconds / month)}mo ago`;
}

/** A play position or length as m:ss (minutes are not wrapped into hours: 75:04). */
export function formatDuration(totalSeconds: number): string {
  const seconds = Number.isFinite(totalSeconds) && totalSeconds > 0 ? Math.floor(totalSeconds) : 0;
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// Building a date formatter costs far more than using one, so each locale's is made once. Locales come
// from request headers, so the set is emptied before it can grow without bound.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const maxDateFormats = 64;

function dateFormat(locale: string, style: "long" | "short"): Intl.DateTimeFormat {
  const key = `${style} ${locale}`;
  let format = dateFormats.get(key);
  if (!format) {
    // Read and written in UTC, so the day never shifts with a time zone.
    const options: Intl.DateTimeFormatOptions = style === "long" ? { dateStyle: "long" } : { month: "short", day: "numeric" };
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    if (dateFormats.size >= maxDateFormats) dateFormats.clear();
    dateFormats.set(key, format);
  }
  return format;
}

const utcDay = (isoDate: string) => new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);

/** A calendar date (`YYYY-MM-DD`, no time of day) written the reader's way, e.g. "March 4, 2026" or "4. März 2026". */
export function formatDate(isoDate: string, locale: string): string {
  return dateFormat(locale, "long").format(utcDay(isoDate));
}

/** A day or a span of days, short, without the year: "Nov 17", "Nov 17 – 23", "Oct 30 – Nov 5". */
export function formatDayRange(start: string, end: string, locale: string): string {
  const format = dateFormat(locale, "short");
  return start === end ? format.format(utcDay(start)) : format.formatRange(utcDay(start), utcDay(end));
}

/** A trend as a signed percentage: "+12.5%", "−3%", "0%"; "New" where there was nothing before (null). */
export function formatTrend(trend: number | null): string {
  if (trend === null) return "New";
  if (trend === 0) return "0%";
  return `${trend > 0 ? "+" : "−"}${Math.abs(trend)}%`;
}

/** The reader's preferred locale from the request's Accept-Language, one the runtime knows, else en-US. */
export function requestLocale(request: Request): string {
  const header = request.headers.get("Accept-Language") ?? "";
  for (const part of header.split(",")) {
    const tag = part.split(";")[0]?.trim();
    if (!tag || tag === "*") continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical && Intl.DateTimeFormat.supportedLocalesOf(canonical).length > 0) return canonical;
    } catch {
      // Not a language tag: try the next one.
    }
  }
  return "en-US";
}

/** A track's genre as shown: 'Uncategorized' when it has none (spec section 3). */
export function genreLabel(genre: string | null | undefined): string {
  return genre?.trim() || "Uncategorized";
}

/** A download code as people read and type it: in threes of four (`ABCD-EFGH-JKMN`). */
export function formatDownloadCode(code: string): string {
  return code.match(/.{1,4}/g)?.join("-") ?? code;
}

/**
 * An order's short reference, as receipts and Purchased name it for its buyer: "3F9A0C12". The sales lists
 * get it from the database already made (private.order_reference), since artists never read an order's id.
 */
export function formatOrderReference(orderId: string): string {
  return orderId.slice(0, 8).toUpperCase();
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** A country's name in English ("United Kingdom") from its ISO code; "Unknown" for none. */
export function formatCountry(code: string | null | undefined): string {
  return code ? (regionNames.of(code) ?? code) : "Unknown";
}

/** A tax as a receipt names it: "VAT (DE) 19%". */
export function formatTax(tax: { name: string | null; country: string | null; rate: number | null }): string {
  return [tax.name ?? "Tax", tax.country ? `(${tax.country})` : null, tax.rate !== null ? `${tax.rate}%` : null]
    .filter((part) => part !== null)
    .join(" ");
}
