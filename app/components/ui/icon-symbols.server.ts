import sprite from "./icons.svg?raw";
import type { IconName } from "./icon";

/**
 * The drawings of some icons, as `<symbol>`s to put in a page's own markup: for a page that cannot fetch
 * the sprite, an embed in a sandboxed frame, whose origin is none, so the browser refuses it an SVG
 * from any address. Taken from the one sprite, so an icon is drawn in one place.
 */
export function iconSymbols(names: readonly IconName[]): string {
  return names
    .map((name) => {
      const symbol = new RegExp(`<symbol id="${name}"[^>]*>.*?</symbol>`, "s").exec(sprite)?.[0];
      if (!symbol) throw new Error(`the icon sprite has no ${name}`);
      return symbol;
    })
    .join("");
}
