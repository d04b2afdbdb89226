// What a payout job records of each payout (sent, settled, reversed) goes through the marketplace's
// functions; a record that fails throws, so the payout stays on its way and the next run records it.

/** Awaits a record of payout `payoutId`; throws with the database's reason when it was not made. */
export async function recorded(call: PromiseLike<{ error: { message: string } | null }>, payoutId: string): Promise<void> {
  const { error } = await call;
  if (error) throw new Error(`recording payout ${payoutId} failed: ${error.message}`);
}
