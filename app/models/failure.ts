/** A refusal: its status, its message and, for a throttle or a lock, when to try again. */
export type Failure<Status extends number> = {
  ok: false;
  status: Status;
  message: string;
  retryAfterSeconds?: number;
};
