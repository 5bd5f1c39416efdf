/** The words of questions and answers: the investor's page, the administrators' queue, the e-mails. */
import { firm } from "./firm";

const signature = `\n\n${firm.name}\n${firm.mailboxes.info}`;

/** A question's states in the administrators' queue, in the order its tabs show them. */
export const QUESTION_STATUSES = ["new", "answered", "closed"] as const;

export const questionsContent = {
  title: "Questions and answers",
  description: "Ask the firm a question about the offering, and read the answers it has published.",
  heading: "Questions and answers",
  materialsLink: "Questions and answers",
  backToMaterials: "Back to the materials",
  ask: {
    heading: "Ask a question",
    body: "Your question",
    document: "About a document (optional)",
    noDocument: "The offering in general",
    page: "Page (optional)",
    submit: "Send the question",
    sent: "Your question is sent. You will get an e-mail when it is answered.",
  },
  mine: {
    heading: "Your questions",
    empty: "You have not asked a question yet.",
    asked: (time: string) => `Asked ${time} (UTC)`,
    about: (title: string, page: number | null) => (page ? `About ${title}, page ${page}` : `About ${title}`),
    status: { new: "Waiting for an answer", answered: "Answered", closed: "Closed" } as Record<string, string>,
    privateAnswer: "The firm's answer to you",
    publishedAnswer: "The firm's answer, published to every investor",
  },
  published: {
    heading: "Answers the firm has published",
    intro: "Questions investors asked, with the firm's answers, newest first. The askers are not named.",
    search: "Search the questions and answers",
    searchSubmit: "Search",
    empty: "No answers are published yet.",
    noMatch: "No published question or answer matches.",
    edited: "Edited",
  },
  queue: {
    title: "Investors' questions",
    description: "The investors' questions: new, answered and closed.",
    heading: "Investors' questions",
    link: "Questions",
    back: "Back to the investors",
    statusLabel: "Show",
    statuses: { new: "New", answered: "Answered", closed: "Closed" } as Record<string, string>,
    filter: "Show",
    empty: "No questions here.",
    from: (email: string) => `From ${email}`,
    privateAnswer: "Answer privately (only the asker sees it)",
    publishedAnswer: "Answer published to every investor who can read the document (the asker is not named)",
    submit: "Send the answer",
    close: "Close the question",
    history: "Earlier texts of the published answer",
    answered: "The answer is sent.",
    closed: "The question is closed.",
    older: "Older questions",
  },
  errors: {
    bodyRequired: "Write your question.",
    bodyTooLong: "A question can be at most 2,000 characters.",
    documentUnreadable: "You cannot ask about this document.",
    pageInvalid: "Give the page as a whole number from 1 to 10,000.",
    pageWithoutDocument: "Choose the document the page is in, or leave the page empty.",
    pageOfVideo: "A video has no pages: leave the page empty.",
    pageBeyond: (pages: number) =>
      `This document has ${pages === 1 ? "1 page" : `${pages.toLocaleString("en-US")} pages`}: give a page from 1 to ${pages.toLocaleString("en-US")}.`,
    tooMany: (limit: number, minutes: number) =>
      `You can ask up to ${limit} questions an hour. Try again in ${minutes === 1 ? "a minute" : `${minutes} minutes`}.`,
    answerRequired: "Write a private answer, a published answer, or both.",
    answerTooLong: "An answer can be at most 5,000 characters.",
    notFound: "No question has this id.",
    notInvestor: "Only investors whose NDA is signed can ask questions.",
    statusInvalid: "Choose new, answered or closed.",
    idInvalid: "The question's id is not valid.",
  },
} as const;

export const questionEmails = {
  asked: ({ email, question, link }: { email: string; question: string; link: string }) => ({
    subject: "A new question from an investor",
    text: `${email} asked:\n\n${question}\n\nAnswer it in the queue: ${link}` + signature,
  }),
  answered: ({ link }: { link: string }) => ({
    subject: "Your question has been answered",
    text: `The firm has answered your question. Read the answer on your page:\n\n${link}` + signature,
  }),
};
