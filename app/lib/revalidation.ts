import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * A page's `shouldRevalidate` when it has a purchase dialog: opening or closing the dialog (`?buy=`)
 * changes the URL, not the data, so the page's data is not read again.
 */
export function revalidateUnlessOnlyBuyChanged({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const withoutBuy = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("buy");
    return params.toString();
  };
  return withoutBuy(currentUrl) === withoutBuy(nextUrl) ? false : defaultShouldRevalidate;
}
