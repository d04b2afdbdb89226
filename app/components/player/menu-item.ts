/** An item of a track's menu (a button or a link), as the menu and its playlist choices draw it. */
export const itemClasses = "block w-full rounded-lg px-3 py-2 text-left text-sm text-ink hover:bg-stage-800 focus-visible:bg-stage-800";
