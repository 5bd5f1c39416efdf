import { firm } from "./firm";
import { sentence } from "./sentence";

/**
 * The team (docs/requirements.md, "Data"). PLACEHOLDER: the names, biographies, photos
 * and profile links below are stand-ins until the firm supplies its own; only
 * the four roles are known. Replace a photo by overwriting its file under
 * public/images/team/ with a square image of the same name.
 */
export type TeamMember = {
  /** The member's key in the URL: /aboutus?member=<slug>. */
  slug: string;
  name: string;
  job: string;
  /** Path of a square portrait under public/. */
  photo: string;
  /** Plain text; may be empty. */
  bio: string;
  /** Professional profile (LinkedIn) URL; empty when the member has none. */
  linkedin: string;
};

export const teamMembers: readonly TeamMember[] = [
  {
    slug: "jordan-ellis",
    /** PLACEHOLDER name, biography and profile. */
    name: "Jordan Ellis",
    job: "Founder and Chief Executive Officer",
    photo: "/images/team/jordan-ellis.svg",
    bio: sentence(
      `Jordan founded ${firm.name} to bring instant settlement to U.S. stocks and ETFs, and leads the firm's strategy and the launch of ${firm.atsName}`,
    ),
    linkedin: "https://www.linkedin.com/in/placeholder-jordan-ellis",
  },
  {
    slug: "morgan-reyes",
    /** PLACEHOLDER name, biography and profile. */
    name: "Morgan Reyes",
    job: "Chief Compliance Officer",
    photo: "/images/team/morgan-reyes.svg",
    bio: `Morgan leads compliance at ${firm.name}, overseeing the firm's supervisory procedures and its obligations as a member of ${firm.regulator.name}.`,
    linkedin: "https://www.linkedin.com/in/placeholder-morgan-reyes",
  },
  {
    slug: "taylor-brooks",
    /** PLACEHOLDER name, biography and profile. */
    name: "Taylor Brooks",
    job: "Financial and Operations Principal",
    photo: "/images/team/taylor-brooks.svg",
    bio: `Taylor is responsible for ${firm.name}'s financial reporting, net capital and books and records, and for the operations behind settlement.`,
    linkedin: "https://www.linkedin.com/in/placeholder-taylor-brooks",
  },
  {
    slug: "chief-operations-officer",
    name: "TBD",
    job: "Chief Operations Officer",
    photo: "/images/team/tbd.svg",
    bio: "",
    linkedin: "",
  },
];
