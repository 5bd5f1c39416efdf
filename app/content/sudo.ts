/**
 * The words of "sudo mode": the confirmation page any signed-in user is sent to (an investor before a copy of
 * their data, an administrator before a change to someone's access), and the notices of the administrator's pages.
 */
export const sudoContent = {
  title: "Confirm it's you",
  heading: "Confirm it's you to continue",
  description: "Confirm your password and second factor before a sensitive change.",
  intro: (minutes: number) =>
    `Some changes need your password again, and your second factor where you have one: your own security settings and a copy of your data, and, for an administrator, changes to someone's access (a correction, a reset of their second factor, a deletion, administrators and invitations) and to what investors can read (publishing a document, a new version of a published one, a wider audience). Once confirmed, you can make them for ${minutes} minutes.`,
  needed: "Confirm it's you first: this change needs your password and second factor from the last 10 minutes.",
  confirmLink: "Confirm it's you",
  notice: "Changes to someone's access ask you to confirm it's you first.",
  /** What the confirmation opened, until when, and why it closes again. */
  confirmedUntil: (time: string) =>
    `You confirmed it's you, so until ${time} (UTC) you can change who gets in (delete or correct an investor, reset a second factor, manage administrators) without your password. After that these changes ask for it again, so a session left open cannot make them.`,
  confirmed: "Confirmed: you can make changes to access for the next few minutes.",
  back: "Back",
} as const;
