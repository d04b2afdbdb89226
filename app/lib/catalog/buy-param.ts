import { useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";

// A page's purchase dialog opens at its own address (`?buy=…`), so it opens without JavaScript too.

/**
 * What `?buy=` names (or null), the address that opens the dialog for an item (the rest of the address
 * kept, such as the page of a list), and how to close the dialog: the address without it, in place.
 */
export function useBuyParam() {
  const [searchParams, setSearchParams] = useSearchParams();
  const buying = searchParams.get("buy");
  function purchasePath(id: string) {
    const params = new URLSearchParams(searchParams);
    params.set("buy", id);
    return `?${params}`;
  }
  function closePurchase() {
    if (buying === null) return;
    setSearchParams(
      (params) => {
        params.delete("buy");
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  }
  return { buying, purchasePath, closePurchase };
}

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
