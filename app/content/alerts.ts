/** The words of the administrators' alerts: the e-mails, and the page where each administrator chooses them. */
import type { MailContent } from "./emails";
import { firm } from "./firm";

const signature = `\n\n${firm.name}\n${firm.mailboxes.info}`;

const changeLine = (link: string) =>
  `You receive this because you chose it. Change or stop these e-mails (no sign-in needed):\n${link}`;

/** Who someone is, in a line of an e-mail: "Name <address>", or the address alone. */
export const personLine = ({ fullName, email }: { fullName: string; email: string }) =>
  fullName ? `${fullName} <${email}>` : email;

export type DigestFacts = {
  /** The day the digest covers, as a heading says it ("28 November 2026"). */
  day: string;
  documents: { title: string; readers: string[]; moreReaders: number }[];
  signUps: string[];
  moreSignUps: number;
  ndasWaiting: string[];
  moreNdasWaiting: number;
};

const listed = (lines: string[], more: number, none: string) =>
  lines.length === 0
    ? `  ${none}`
    : [...lines.map((line) => `  - ${line}`), ...(more > 0 ? [`  and ${more} more`] : [])].join("\n");

export const alertEmails = {
  firstOpening: ({
    reader,
    title,
    openedAt,
    readingLink,
    preferenceLink,
  }: {
    reader: string;
    title: string;
    openedAt: string;
    readingLink: string;
    preferenceLink: string;
  }): MailContent => ({
    subject: `${reader} opened "${title}"`,
    text:
      `${reader} opened "${title}" for the first time, on ${openedAt}.\n\n` +
      `Who has read it so far:\n${readingLink}\n\n` +
      changeLine(preferenceLink) +
      signature,
  }),

  digest: (facts: DigestFacts, { readingLink, preferenceLink }: { readingLink: string; preferenceLink: string }) => ({
    subject: `Daily digest of the investor portal, ${facts.day}`,
    text:
      `What happened on the ${firm.shortName} investor portal in the 24 hours to this digest's hour, ${facts.day}.\n\n` +
      `Documents read:\n` +
      (facts.documents.length === 0
        ? "  No document was opened."
        : facts.documents
            .map(
              (document) =>
                `  "${document.title}", by:\n` +
                [
                  ...document.readers.map((reader) => `    - ${reader}`),
                  ...(document.moreReaders > 0 ? [`    and ${document.moreReaders} more`] : []),
                ].join("\n"),
            )
            .join("\n")) +
      `\n\nNew sign-ups:\n${listed(facts.signUps, facts.moreSignUps, "No one signed up.")}\n\n` +
      `NDAs sent and not yet signed:\n${listed(facts.ndasWaiting, facts.moreNdasWaiting, "None.")}\n\n` +
      `The reading report:\n${readingLink}\n\n` +
      changeLine(preferenceLink) +
      signature,
  }),
} satisfies Record<string, (...args: never[]) => MailContent>;

export const alertsPage = {
  title: "E-mail alerts",
  link: "My e-mail alerts",
  description: "Choose which e-mails the portal sends you about investors' activity.",
  heading: "E-mail alerts",
  intro:
    "Choose what the portal tells you by e-mail about investors' activity. Every alert e-mail has a link back to this choice.",
  signedLinkIntro: (email: string) =>
    `The alerts of ${email}. This link from an alert e-mail changes them without signing in; keep it to yourself.`,
  legend: "Send me",
  modes: {
    openings: {
      label: "An e-mail each time an investor opens a document for the first time",
      hint: "Sent within a minute of the opening.",
    },
    digest: {
      label: "A daily digest",
      hint: "What was read and by whom, new sign-ups, and NDAs sent and not yet signed, once a day.",
    },
    off: { label: "Nothing", hint: "No alert e-mails." },
  },
  hour: "Hour of the digest (UTC)",
  hourHint: "The digest covers the 24 hours before this hour.",
  save: "Save",
  saved: "Your alert e-mails are saved.",
  current: {
    openings: "You are sent an e-mail on each first opening of a document.",
    digest: (hour: string) => `You are sent a daily digest at ${hour} UTC.`,
    off: "You are sent no alert e-mails.",
  },
  unsubscribed: "Alert e-mails are now off. You can turn them on again here.",
  back: "Back to the portal",
  badLinkFallback: "This link could not be opened. Use the link of a recent alert e-mail.",
};

export const alertMessages = {
  unknownMode: "Choose what to be sent: alerts on first openings, a daily digest, or nothing.",
  badHour: "Choose an hour from 00:00 to 23:00.",
  badLink: "This link is not valid: it may have been changed or cut short. Use the link of a recent alert e-mail.",
  notAdministrator: "These alerts belong to an administrator's account, and this account is not one any more.",
};

/** The hour as the page and the e-mails write it: "07:00". */
export const hourLabel = (hour: number) => `${String(hour).padStart(2, "0")}:00`;
