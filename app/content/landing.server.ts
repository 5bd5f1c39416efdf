import { faqEntries } from "./faq";
import { faqBlock } from "./landing";
import { teamMembers } from "./team";

/**
 * What the landing routes' loaders give the page: the FAQ block and the team
 * travel as data in the HTML rather than as script in every visitor's bundle.
 */
export function landingContent() {
  return { faq: faqEntries.slice(0, faqBlock.count), team: teamMembers };
}
