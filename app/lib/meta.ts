import { brandName } from "~/lib/constants";

/** A page's title and description, the same shape on every route. */
export function pageMeta(title: string, description: string) {
  return [
    { title: title === brandName ? title : `${title} · ${brandName}` },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
  ];
}
