/** Business constants from the spec (section 9), written once and used by every page that states them. */
export const artistShare = { digitalPercent: 88, physicalPercent: 92 } as const;
export const processorFeeRange = "4-6%";
export const minimumAge = 13;
export const legalLastUpdated = { iso: "2024-01-15", label: "January 15, 2024" } as const;
export const minimumPasswordLength = 8;
export const genres = ["Rock", "Pop", "Hip Hop", "Electronic", "Jazz", "Classical", "R&B", "Folk", "Metal", "Country", "Blues", "Indie"] as const;
export type Genre = (typeof genres)[number];
export const currencies = ["USD", "EUR", "GBP"] as const;
