/**
 * What a page's Share menu offers (its address, and the code of each player it can be embedded as), and
 * its first player for the page's oEmbed link and player card. Made by the page's loader
 * (`embedding.server.ts`), so no page carries the builder.
 */
export type Sharing = { link: string; embeds: { label: string; code: string }[]; player: { path: string; width: number; height: number } };
