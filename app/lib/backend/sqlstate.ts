// The Postgres error codes (SQLSTATE) the marketplace tells apart, named for what they mean here. The
// database's rules raise them (constraints, policies, the functions in supabase/schemas); the routes and
// the error mapper read them by these names.
export const sqlState = {
  /** A row that must be unique already exists (a like, a follow, a track in a playlist). */
  uniqueViolation: "23505",
  /** A row refers to nothing, or the row is still referred to (a track with purchases). */
  foreignKeyViolation: "23503",
  restrictViolation: "23001",
  notNullViolation: "23502",
  checkViolation: "23514",
  /** A policy or a function refused this user (a suspended account, another user's row). */
  insufficientPrivilege: "42501",
  /** A bound of the catalog was reached (`catalogLimits`, the playlists' limits, the pace of plays). */
  limitReached: "54000",
  /** A function was asked something that does not apply (an order not paid, a closed checkout). */
  invalidParameter: "22023",
  /** A function found no such row (a track no longer there). */
  noDataFound: "P0002",
  /** A rule a function raised. */
  raisedException: "P0001",
  /** The caller is not the marketplace's server (its secret is missing or wrong). */
  notTheMarketplace: "28000",
  undefinedTable: "42P01",
  undefinedColumn: "42703",
} as const;
