/** What a visitor or API client is told while the database is locked by another writer or full. */
export const databaseUnavailable = {
  message: "The site is busy right now. Please try again in a moment.",
  /** Sent as Retry-After: about one busy timeout, after which the lock holder has usually finished. */
  retryAfterSeconds: 5,
};
