import spriteHref from "./icons.svg?no-inline";

// Every icon the product draws, in one place: `icons.svg`, a sprite of symbols the browser fetches once
// and keeps (its name changes with its content), so no page carries the drawings in its JavaScript.
// Icons are decoration (aria-hidden): the control they sit in carries the accessible name. Solid icons
// are drawn on a 20-unit grid, outline ones on 24 with the stroke's width set here.

export const iconNames = [
  "play",
  "pause",
  "heart",
  "plus",
  "check",
  "search",
  "menu",
  "music",
  "headphones",
  "share",
  "download",
  "previous",
  "next",
  "volume",
  "muted",
  "shuffle",
  "repeat",
  "queue",
  "more",
  "up",
  "down",
  "close",
  "cart",
  "bell",
] as const;

export type IconName = (typeof iconNames)[number];

export function Icon({ name, className, strokeWidth = 2 }: { name: IconName; className?: string; strokeWidth?: number }) {
  return (
    <svg aria-hidden="true" className={className} strokeWidth={strokeWidth}>
      <use href={`${spriteHref}#${name}`} />
    </svg>
  );
}
