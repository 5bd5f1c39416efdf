/** The contact pages, the contact form's words, and the e-mail that carries a visitor's message to the firm. */
import { formBodyErrors } from "./forms";

export const contactPage = {
  title: "Contact Us",
  description: "Send the firm a message: questions about the ATS, subscribing, or trading through your broker-dealer.",
} as const;

export const contactForm = {
  title: "Let's Connect",
  intro: "Fill out the form below to get started",
  labels: {
    firstName: "First Name",
    lastName: "Last Name",
    email: "Email Address",
    message: "Message",
  },
  allRequired: "All fields are required.",
  submit: "Send Message",
  sent: "Thank you. Your message has been sent.",
  errors: {
    firstNameRequired: "Enter your first name",
    firstNameTooLong: (max: number) => `First name must be at most ${max} characters`,
    firstNameInvalid: "First name contains characters that are not allowed",
    lastNameRequired: "Enter your last name",
    lastNameTooLong: (max: number) => `Last name must be at most ${max} characters`,
    lastNameInvalid: "Last name contains characters that are not allowed",
    emailRequired: "Enter your email address",
    emailInvalid: "Email address is invalid",
    emailTooLong: (max: number) => `Email address must be at most ${max} characters`,
    messageRequired: "Enter a message",
    messageTooLong: (max: number) => `Message must be at most ${max.toLocaleString("en-US")} characters`,
    ...formBodyErrors,
    refused: "Your message could not be sent. Please reload the page and try again.",
    tooMany: (minutes: number) =>
      `You have sent several messages in a short time. Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
  },
} as const;

export type ContactMailInput = {
  firstName: string;
  lastName: string;
  email: string;
  message: string;
  receivedAt: Date;
};

export function contactMailSubject(firstName: string, lastName: string) {
  return `Contact form: message from ${firstName} ${lastName}`;
}

export function contactMailText({ firstName, lastName, email, message, receivedAt }: ContactMailInput) {
  return [
    "A visitor sent this message through the website's contact form.",
    "Reply to this e-mail to answer them.",
    "",
    `Name: ${firstName} ${lastName}`,
    `Email address: ${email}`,
    `Received: ${receivedAt.toISOString()}`,
    "",
    "Message:",
    message,
    "",
  ].join("\n");
}
